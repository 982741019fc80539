import { errorReply, jsonResponse, ok } from "@/lib/api/respond";
import { methodNotAllowed } from "@/lib/api/with-api-key";
import { ingestResendEvent } from "@/lib/delivery/providers/resend/ingest-resend-event";
import { AppError } from "@/lib/errors";

/** Resend's events are a few KB; anything far larger is not one. */
const MAX_BYTES = 256 * 1024;

// POST /api/provider-events/resend – Resend's signed webhook deliveries (Svix / Standard Webhooks)
export async function POST(request: Request): Promise<Response> {
  try {
    if (Number(request.headers.get("content-length") ?? 0) > MAX_BYTES) throw tooLarge();
    const body = await request.text();
    if (body.length > MAX_BYTES) throw tooLarge();
    const result = await ingestResendEvent({ body, headers: request.headers });
    return jsonResponse(ok(result));
  } catch (error) {
    const reply = errorReply(error);
    // The signature is the credential here: a Basic challenge would be wrong.
    const headers = { ...reply.headers };
    delete headers["www-authenticate"];
    return jsonResponse({ ...reply, headers });
  }
}

function tooLarge(): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `A Resend event is at most ${MAX_BYTES / 1024} KB.`);
}

const notAllowed = methodNotAllowed("POST");
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
