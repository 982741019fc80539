import { sendScope } from "@/lib/domain/api-keys/scopes.shared";
import { created, ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { sendMessage } from "@/lib/sending/send-message";
import { serializeMessage } from "@/lib/domain/messages/serialize";

/** Shared by POST /v1/email_messages and /v1/sandbox/email_messages. */
export function sendEmailHandler({ sandbox }: { sandbox: boolean }) {
  return withApiKey({ scope: sendScope(sandbox), body: "json", sandbox }, async ({ principal, body }) => {
    const { message, replayed } = await sendMessage({
      workspaceId: principal.workspaceId,
      sandbox,
      body,
      allowedSenders: principal.allowedSenders,
    });
    return replayed
      ? ok(serializeMessage(message), { "idempotent-replayed": "true" })
      : created(serializeMessage(message));
  });
}
