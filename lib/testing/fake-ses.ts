import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** One SendEmail call the stand-in received, whatever it answered. */
export interface FakeSesCall {
  authorization: string | undefined;
  configurationSet: string | undefined;
  destination: string[];
  tags: Array<{ Name: string; Value: string }>;
  /** The raw MIME exactly as SES would receive it (Content.Raw.Data, base64-decoded). */
  raw: string;
  /** What SES sends on (200 only): `raw` with its own Message-ID and Date, as SES documents it rewrites them. */
  delivered?: string;
  status: number;
  /** SES's MessageId, when it answered 200. */
  messageId?: string;
}

export interface FakeSes {
  /** Give to the provider as SES_ENDPOINT. */
  url: string;
  calls: FakeSesCall[];
  /** The next `count` calls answer `status` with an SES error named `name` (x-amzn-ErrorType). */
  failNext(status: number, name: string, message: string, count?: number): void;
  close(): Promise<void>;
}

/** SES v2 MessageIds look like this: 0102018c… (hex), then a dash-separated suffix. */
function newSesMessageId(): string {
  return `0102${randomBytes(8).toString("hex")}-${randomBytes(4).toString("hex")}-${randomBytes(2).toString("hex")}-000000`;
}

/**
 * A local HTTP server that speaks the SES v2 `SendEmail` REST JSON protocol as the AWS SDK calls it
 * (POST /v2/email/outbound-emails): it requires a SigV4 Authorization for the `ses` service, takes a
 * `Content.Raw` message, records it and answers `{ MessageId }`. Errors are answered like SES's:
 * the status, the `x-amzn-ErrorType` header and `{ message }`.
 */
export async function startFakeSes(): Promise<FakeSes> {
  const calls: FakeSesCall[] = [];
  const failures: Array<{ status: number; name: string; message: string }> = [];

  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const error = (status: number, name: string, message: string) => {
      response
        .writeHead(status, { "content-type": "application/json", "x-amzn-errortype": name })
        .end(JSON.stringify({ message }));
      return status;
    };
    if (request.method !== "POST" || request.url !== "/v2/email/outbound-emails") {
      return error(404, "NotFoundException", `No route ${request.method} ${request.url}.`);
    }
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as {
      ConfigurationSetName?: string;
      Destination?: { ToAddresses?: string[] };
      EmailTags?: Array<{ Name: string; Value: string }>;
      Content?: { Raw?: { Data?: string } };
    };
    const authorization = request.headers.authorization;
    const call: FakeSesCall = {
      authorization,
      configurationSet: body.ConfigurationSetName,
      destination: body.Destination?.ToAddresses ?? [],
      tags: body.EmailTags ?? [],
      raw: Buffer.from(body.Content?.Raw?.Data ?? "", "base64").toString("utf8"),
      status: 0,
    };
    calls.push(call);
    if (
      !authorization ||
      !/^AWS4-HMAC-SHA256 Credential=\S+\/ses\/aws4_request, SignedHeaders=\S+, Signature=[0-9a-f]{64}$/.test(
        authorization,
      )
    ) {
      call.status = error(403, "UnrecognizedClientException", "The security token included in the request is invalid.");
      return;
    }
    const failure = failures.shift();
    if (failure) {
      call.status = error(failure.status, failure.name, failure.message);
      return;
    }
    if (!call.raw) {
      call.status = error(400, "BadRequestException", "Content.Raw.Data is required.");
      return;
    }
    call.messageId = newSesMessageId();
    call.delivered = call.raw
      .replace(/^Message-ID:.*$/im, `Message-ID: <${call.messageId}@eu-west-1.amazonses.com>`)
      .replace(/^Date:.*$/im, `Date: ${new Date().toUTCString().replace("GMT", "+0000")}`);
    call.status = 200;
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ MessageId: call.messageId }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    failNext(status, name, message, count = 1) {
      for (let index = 0; index < count; index++) failures.push({ status, name, message });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
