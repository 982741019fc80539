import { AppError } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
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
  const unavailable = databaseUnavailableCode(error);
  if (unavailable) {
    log.error("database unavailable", { ...errorFields(error), code: unavailable });
    return errorReply(new AppError("SERVICE_UNAVAILABLE", "The database is unreachable; nothing was written. Retry shortly."));
  }
  log.error("unhandled error", errorFields(error, { stack: true }));
  return { status: 500, body: { error: { code: "INTERNAL_ERROR", message: "Something went wrong on our side; nothing was written. Retry, or report it with the time of the request." } } };
}

/** Socket-level failures (Node, postgres.js) that mean the database cannot be reached right now. */
const CONNECTION_ERRORS = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN", "CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT"]);

/**
 * PostgreSQL SQLSTATEs that say "not now" rather than "wrong request": class 08 (connection exception),
 * 53300/53400 (too many connections, configuration limit), 57P01–57P03 (admin or crash shutdown,
 * cannot connect now). Answered 503 with Retry-After: the client's retry is the fix.
 */
function isUnavailableState(code: string): boolean {
  return code.startsWith("08") || code === "53300" || code === "53400" || code === "57P01" || code === "57P02" || code === "57P03";
}

/** The code of the first error in the cause chain that means the database is unavailable, or null. */
export function databaseUnavailableCode(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (CONNECTION_ERRORS.has(code) || (/^[0-9A-Z]{5}$/.test(code) && isUnavailableState(code)))) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
