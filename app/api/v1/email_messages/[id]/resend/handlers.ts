import { created, ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { resendEmailSchema } from "@/lib/domain/messages/schemas";
import { serializeMessage } from "@/lib/domain/messages/serialize";
import { resendMessage } from "@/lib/sending/resend-message";
import { assertKnownKeys, dropNulls, parseInput } from "@/lib/foundation/validation.shared";

// POST /v1/email_messages/:id/resend – a new live message with the same content, linked to the original
export const POST = withApiKey<{ id: string }>(
  { scope: "emails:send", body: "optional" },
  async ({ principal, params, body }) => {
    assertKnownKeys(body, resendEmailSchema);
    const { metaId } = parseInput(resendEmailSchema, dropNulls(body ?? {}));
    const { message, replayed } = await resendMessage({
      workspaceId: principal.workspaceId,
      messageId: params.id,
      sandbox: false,
      metaId,
      allowedSenders: principal.allowedSenders,
      submittedVia: "api",
    });
    return replayed
      ? ok(serializeMessage(message), { "idempotent-replayed": "true" })
      : created(serializeMessage(message));
  },
);
