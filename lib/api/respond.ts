import { AppError } from "@/lib/errors";
import { databaseUnavailableCode } from "@/db/unavailable";
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
