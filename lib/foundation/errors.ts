// The one error type of lib/, transport-neutral: only lib/entry/api maps a code to an HTTP status.
export const ERROR_CODES = [
  "INVALID_JSON",
  "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
  "EMAIL_MESSAGE_EMPTY_RECIPIENTS_ERROR",
  "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "EMAIL_MESSAGE_INVALID_SENDER_ERROR",
  "EMAIL_MESSAGE_INVALID_TEST_MODE_RECIPIENT_ERROR",
  "TEMPLATE_RENDER_ERROR",
  "TEMPLATE_MISSING_TRANSLATIONS",
  // CONTENT_CHECKS=block: the content's checks found an error (docs/deliverability.md#content-checks).
  "CONTENT_CHECK_FAILED",
  "CONFLICT",
  // A message, inbound mail or thread older than the workspace's metadata window: deleted by retention (docs/retention.md).
  "MESSAGE_PURGED",
  "RATE_LIMITED",
  "SERVICE_UNAVAILABLE",
  "INTERNAL_ERROR",
  // Answered by the HTTP server (lib/entry/http/hardened-server.ts) to requests that never reach a route.
  "BAD_REQUEST",
  "REQUEST_TIMEOUT",
  "REQUEST_HEADER_FIELDS_TOO_LARGE",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorDetail {
  index: number;
  param?: string;
  code: ErrorCode;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly param?: string;
  readonly details?: ErrorDetail[];

  constructor(code: ErrorCode, message: string, options: { param?: string; details?: ErrorDetail[] } = {}) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.param = options.param;
    this.details = options.details;
  }
}

export function invalidParameter(param: string, message: string): AppError {
  return new AppError("EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", message, { param });
}

export function notFound(what: string, param?: string): AppError {
  return new AppError("NOT_FOUND", `${what} not found.`, { param });
}

/** A signed-in dashboard user whose role does not allow the action (the API never needs it: keys have no roles). */
export function forbidden(message: string): AppError {
  return new AppError("FORBIDDEN", message);
}
