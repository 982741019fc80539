import { AppError } from "@/lib/foundation/errors";
import { databaseUnavailableCode } from "@/db/unavailable";
import { errorFields, log } from "@/lib/foundation/log";
import { ERROR_STATUS } from "./error-status";

/** What a handler returns: the wrapper turns it into a JSON Response and logs it. */
export interface ApiReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** What the activity log stores of the answer, when not the body itself (a list page: its meta and ids). */
  logged?: unknown;
}

export const ok = (data: unknown, headers?: Record<string, string>): ApiReply => ({
  status: 200,
  body: { data },
  headers,
});
export const created = (data: unknown): ApiReply => ({ status: 201, body: { data } });
/**
 * A page of a list. The activity log keeps its meta and the listed ids, not the items: a page of 50
 * messages is ~40 KB, and storing it cost more than answering it (docs/api.md#activity-log).
 */
export const list = (meta: Record<string, unknown>, data: unknown[]): ApiReply => ({
  status: 200,
  body: { meta, data },
  logged: { meta, data: data.map(listedId) },
});

const listedId = (item: unknown) => {
  const id = (item as { id?: unknown } | null)?.id;
  return typeof id === "string" ? { id } : "[an item without an id]";
};

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
    const body = {
      error: {
        code: error.code,
        message: error.message,
        ...(error.param ? { param: error.param } : {}),
        ...(error.details ? { details: error.details } : {}),
      },
    };
    return { status: ERROR_STATUS[error.code], body, headers };
  }
  const unavailable = databaseUnavailableCode(error);
  if (unavailable) {
    log.error("database unavailable", { ...errorFields(error), code: unavailable });
    return errorReply(
      new AppError("SERVICE_UNAVAILABLE", "The database is unreachable; nothing was written. Retry shortly."),
    );
  }
  log.error("unhandled error", errorFields(error, { stack: true }));
  return {
    status: 500,
    body: {
      error: {
        code: "INTERNAL_ERROR",
        message:
          "Something went wrong on our side; nothing was written. Retry, or report it with the time of the request.",
      },
    },
  };
}
