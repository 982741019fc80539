import { errorReply, jsonResponse, ok } from "@/lib/api/respond";
import { methodNotAllowed } from "@/lib/api/with-api-key";
import { ingestSesNotification } from "@/lib/delivery/providers/ses/ingest-ses-notification";
import { AppError } from "@/lib/errors";

/** SNS messages are at most 256 KB, plus the envelope's signature fields. */
const MAX_BYTES = 300 * 1024;

// POST /api/provider-events/ses – SNS HTTP(S) deliveries of SES events, subscription confirmations
export async function POST(request: Request): Promise<Response> {
  try {
    if (Number(request.headers.get("content-length") ?? 0) > MAX_BYTES) throw tooLarge();
    const body = await request.text();
    if (body.length > MAX_BYTES) throw tooLarge();
    return jsonResponse(ok(await ingestSesNotification(body)));
  } catch (error) {
    const reply = errorReply(error);
    // The SNS signature is the credential here: a Basic challenge would be wrong.
    const headers = { ...reply.headers };
    delete headers["www-authenticate"];
    return jsonResponse({ ...reply, headers });
  }
}

function tooLarge(): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `An SNS message is at most ${MAX_BYTES / 1024} KB.`);
}

const notAllowed = methodNotAllowed("POST");
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
