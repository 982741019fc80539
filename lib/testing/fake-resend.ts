import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** One POST /emails or POST /emails/batch the fake received, whatever it answered. */
export interface FakeResendCall {
  path: "/emails" | "/emails/batch";
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  /** POST /emails: the email. POST /emails/batch: `{}` (the emails are in `batch`). */
  body: Record<string, unknown>;
  /** POST /emails/batch: the emails, in order. */
  batch?: Array<Record<string, unknown>>;
  status: number;
}

export interface FakeResend {
  /** Give to the SDK as baseUrl (RESEND_BASE_URL). */
  url: string;
  apiKey: string;
  calls: FakeResendCall[];
  /** Emails created, by id: a repeated Idempotency-Key creates none. */
  emails: Map<string, Record<string, unknown>>;
  /**
   * The next `count` calls (either endpoint) answer `status` with Resend's error body. With
   * `afterCreating`, the email (every email of a batch) is created first and only the answer is lost
   * (the case the Idempotency-Key exists for).
   */
  failNext(status: number, count?: number, options?: { message?: string; afterCreating?: boolean }): void;
  close(): Promise<void>;
}

const ERROR_NAMES: Record<number, string> = {
  401: "missing_api_key",
  403: "invalid_api_key",
  409: "invalid_idempotent_request",
  422: "validation_error",
  429: "rate_limit_exceeded",
  500: "internal_server_error",
};

/**
 * A local HTTP server that behaves like Resend's POST /emails and POST /emails/batch: it checks the
 * bearer key, requires an Idempotency-Key and answers a repeated key with the first answer's ids (as
 * Resend does for 24 hours), or 409 `invalid_idempotent_request` when the key comes with another body. A batch answers `{ data: [{ id }, …] }` in the order of its emails.
 */
export async function startFakeResend(apiKey = "re_test_0123456789"): Promise<FakeResend> {
  const calls: FakeResendCall[] = [];
  const emails = new Map<string, Record<string, unknown>>();
  const byKey = new Map<string, string>();
  const batchesByKey = new Map<string, string[]>();
  const bodiesByKey = new Map<string, string>();
  const failures: Array<{ status: number; message: string; afterCreating: boolean }> = [];

  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      return status;
    };
    const error = (status: number, message: string) =>
      reply(status, { statusCode: status, name: ERROR_NAMES[status] ?? "application_error", message });
    const path = request.url === "/emails" || request.url === "/emails/batch" ? request.url : null;
    if (request.method !== "POST" || !path) return error(404, `No route ${request.method} ${request.url}.`);

    const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as unknown;
    const batch = path === "/emails/batch" ? (parsed as Array<Record<string, unknown>>) : undefined;
    const body = batch ? {} : (parsed as Record<string, unknown>);
    const authorization = request.headers.authorization;
    const idempotencyKey = request.headers["idempotency-key"] as string | undefined;
    const call: FakeResendCall = { path, authorization, idempotencyKey, body, batch, status: 0 };
    calls.push(call);
    const createOne = (email: Record<string, unknown>) => {
      const id = randomUUID();
      emails.set(id, email);
      return id;
    };
    const create = () => {
      const existing = idempotencyKey ? byKey.get(idempotencyKey) : undefined;
      if (existing) return existing;
      const id = createOne(body);
      if (idempotencyKey) byKey.set(idempotencyKey, id);
      return id;
    };
    const createBatch = (list: Array<Record<string, unknown>>) => {
      const existing = idempotencyKey ? batchesByKey.get(idempotencyKey) : undefined;
      if (existing) return existing;
      const ids = list.map(createOne);
      if (idempotencyKey) batchesByKey.set(idempotencyKey, ids);
      return ids;
    };
    // As Resend: a key already used with another body is refused, never answered with the first ids.
    const raw = Buffer.concat(chunks).toString("utf8");
    const reusedKey =
      idempotencyKey !== undefined &&
      bodiesByKey.has(`${path} ${idempotencyKey}`) &&
      bodiesByKey.get(`${path} ${idempotencyKey}`) !== raw;

    if (!authorization) call.status = error(401, "Missing API key in the authorization header.");
    else if (authorization !== `Bearer ${apiKey}`) call.status = error(403, "API key is invalid.");
    else if (!idempotencyKey) call.status = error(422, "The fake requires an Idempotency-Key header.");
    else if (batch && (!Array.isArray(batch) || batch.length > 100))
      call.status = error(422, "A batch holds 1 to 100 emails.");
    else if (batch?.some((email) => "attachments" in email))
      call.status = error(422, "Attachments are not supported in batch emails.");
    else if (reusedKey)
      call.status = error(409, "This idempotency key has already been used on a request that had a different payload.");
    else if (failures.length) {
      const failure = failures.shift()!;
      if (failure.afterCreating) {
        if (batch) createBatch(batch);
        else create();
        if (idempotencyKey) bodiesByKey.set(`${path} ${idempotencyKey}`, raw);
      }
      call.status = error(failure.status, failure.message);
    } else if (batch) call.status = reply(200, { data: createBatch(batch).map((id) => ({ id })) });
    else call.status = reply(200, { id: create() });
    if (idempotencyKey && call.status === 200) bodiesByKey.set(`${path} ${idempotencyKey}`, raw);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    calls,
    emails,
    failNext(status, count = 1, options = {}) {
      const message = options.message ?? `Fake failure ${status}.`;
      for (let i = 0; i < count; i++) failures.push({ status, message, afterCreating: options.afterCreating ?? false });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
