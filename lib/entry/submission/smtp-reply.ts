import { AppError, type ErrorCode } from "@/lib/foundation/errors";

/** The message starts with the enhanced status code (RFC 3463) that fits (docs/api.md#smtp-reply-codes). */
export class SmtpReply extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
    this.name = "SmtpReply";
  }
}

/** The API's error codes as SMTP replies; a code not listed is a 550 5.6.0 with the API's sentence. */
const REPLIES: Partial<Record<ErrorCode, [number, string]>> = {
  UNAUTHORIZED: [535, "5.7.8"],
  RATE_LIMITED: [451, "4.7.0"],
  PAYLOAD_TOO_LARGE: [552, "5.3.4"],
  EMAIL_MESSAGE_INVALID_SENDER_ERROR: [550, "5.7.1"],
  EMAIL_MESSAGE_INVALID_TEST_MODE_RECIPIENT_ERROR: [550, "5.7.1"],
  EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR: [550, "5.1.3"],
  SERVICE_UNAVAILABLE: [451, "4.3.0"],
  // Content refused by CONTENT_CHECKS=block: "message content not acceptable".
  CONTENT_CHECK_FAILED: [554, "5.6.0"],
};

/** An AppError keeps its sentence; anything else is our fault: a temporary 451 the client retries. */
export function smtpReplyFor(error: unknown): SmtpReply {
  if (error instanceof SmtpReply) return error;
  if (error instanceof AppError) {
    const [code, enhanced] = REPLIES[error.code] ?? [550, "5.6.0"];
    const field = error.param ? ` (${error.param})` : "";
    return new SmtpReply(code, `${enhanced} ${error.message}${field}`.replace(/[\r\n]+/g, " "));
  }
  return new SmtpReply(
    451,
    "4.3.0 The message could not be accepted because of a temporary problem on our side; try again later.",
  );
}
