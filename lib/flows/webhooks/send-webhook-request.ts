import "server-only";
import http from "node:http";
import https from "node:https";
import { guardedLookup, parseTargetUrl } from "./target-guard";

export const REQUEST_TIMEOUT_MS = 10_000;
export const RESPONSE_BODY_LIMIT = 4096;

export interface WebhookResponse {
  status: number | null;
  latencyMs: number;
  /** The first 4 KB of the response body. */
  body: string | null;
  error: string | null;
  ok: boolean;
}

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

/** 10 s for the whole exchange, redirects are failures, and every resolved address is checked on the socket's own lookup. Never throws. */
export async function sendWebhookRequest(
  targetUrl: string,
  headers: Record<string, string>,
  payload: string,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<WebhookResponse> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = parseTargetUrl(targetUrl);
  } catch (error) {
    return { status: null, latencyMs: 0, body: null, error: (error as Error).message, ok: false };
  }
  const secure = url.protocol === "https:";
  return new Promise<WebhookResponse>((resolve) => {
    let settled = false;
    const finish = (result: Omit<WebhookResponse, "latencyMs" | "ok">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const ok = result.status !== null && result.status >= 200 && result.status < 300;
      resolve({ ...result, latencyMs: elapsed(), ok });
    };
    const request = (secure ? https : http).request(url, {
      method: "POST",
      agent: secure ? agents.https : agents.http,
      lookup: guardedLookup,
      headers: {
        ...headers,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(payload),
        "user-agent": "Postwerk-Webhooks/1",
      },
    });
    const timer = setTimeout(() => {
      request.destroy(new Error(`timed out after ${timeoutMs / 1000} s`));
    }, timeoutMs);
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const body = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString("utf8");
        const status = response.statusCode ?? null;
        const redirect = status !== null && status >= 300 && status < 400;
        finish({
          status,
          body,
          error: redirect ? `redirect to ${response.headers.location ?? "(no location)"} not followed` : null,
        });
      };
      response.on("data", (chunk: Buffer) => {
        if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk);
        size += chunk.length;
        // Past the limit the rest is not wanted: answer now and drop the connection.
        if (size > RESPONSE_BODY_LIMIT * 4) {
          done();
          response.destroy();
        }
      });
      response.on("end", done);
      response.on("error", () => done());
      response.on("aborted", () => done());
    });
    request.on("error", (error) => finish({ status: null, body: null, error: describe(error) }));
    request.end(payload);
  });
}

function describe(error: NodeJS.ErrnoException): string {
  if (error.code === "ECONNRESET" || error.message === "socket hang up") return "connection closed before an answer";
  if (error.code === "ECONNREFUSED") return "connection refused";
  return error.message;
}
