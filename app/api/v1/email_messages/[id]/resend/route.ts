import { created, ok } from "@/lib/api/respond";
import { methodNotAllowed, withApiKey } from "@/lib/api/with-api-key";
import { resendEmailSchema } from "@/lib/messages/schemas";
import { serializeMessage } from "@/lib/messages/serialize";
import { resendMessage } from "@/lib/sending/resend-message";
import { dropNulls, parseInput } from "@/lib/validation.shared";

// POST /v1/email_messages/:id/resend – a new live message with the same content, linked to the original
export const POST = withApiKey<{ id: string }>({ scope: "emails:send", body: "optional" }, async ({ principal, params, body }) => {
  const { metaId } = parseInput(resendEmailSchema, dropNulls(body ?? {}));
  const { message, replayed } = await resendMessage({ workspaceId: principal.workspaceId, messageId: params.id, sandbox: false, metaId, allowedSenders: principal.allowedSenders });
  return replayed ? ok(serializeMessage(message), { "idempotent-replayed": "true" }) : created(serializeMessage(message));
});

const notAllowed = methodNotAllowed("POST");
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
