import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { ERROR_STATUS } from "./error-status";

/** What a handler returns: the wrapper turns it into a JSON Response and logs it. */
export interface ApiReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const ok = (data: unknown, headers?: Record<string, string>): ApiReply => ({ status: 200, body: { data }, headers });
export const created = (data: unknown): ApiReply => ({ status: 201, body: { data } });
export const list = (meta: Record<string, unknown>, data: unknown[]): ApiReply => ({ status: 200, body: { meta, data } });

export function jsonResponse(reply: ApiReply): Response {
  return new Response(JSON.stringify(reply.body), {
    status: reply.status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...reply.headers },
  });
}

/** Any thrown value as the error envelope (docs/api.md#decided-errors). Unknown errors are logged and never leak a stack. */
export function errorReply(error: unknown): ApiReply {
  if (error instanceof AppError) {
    const headers: Record<string, string> = {};
    if (error.code === "UNAUTHORIZED") headers["www-authenticate"] = 'Basic realm="api"';
    if (error.code === "SERVICE_UNAVAILABLE") headers["retry-after"] = "5";
    const body = { error: { code: error.code, message: error.message, ...(error.param ? { param: error.param } : {}), ...(error.details ? { details: error.details } : {}) } };
    return { status: ERROR_STATUS[error.code], body, headers };
  }
  if (isDatabaseUnavailable(error)) {
    log.error("database unavailable", { error: String(error) });
    return errorReply(new AppError("SERVICE_UNAVAILABLE", "The database is unreachable; nothing was written. Retry shortly."));
  }
  log.error("unhandled error", { error: error instanceof Error ? error.stack : String(error) });
  return { status: 500, body: { error: { code: "INTERNAL_ERROR", message: "Something went wrong on our side; nothing was written. Retry, or report it with the time of the request." } } };
}

const CONNECTION_ERRORS = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT", "57P01", "57P03", "08000", "08001", "08003", "08006"]);

function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && CONNECTION_ERRORS.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
