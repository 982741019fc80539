import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { cancelMessage } from "@/lib/domain/messages/cancel-message";
import { serializeMessage } from "@/lib/domain/messages/serialize";

// POST /v1/email_messages/:id/cancel – a message still waiting (scheduled or queued) never goes out; 409 once handed over
export const POST = withApiKey<{ id: string }>({ scope: "emails:send", body: "none" }, async ({ principal, params }) =>
  ok(
    serializeMessage(
      await cancelMessage({
        workspaceId: principal.workspaceId,
        messageId: params.id,
        by: `through the API (key ${principal.apiKeyId})`,
      }),
    ),
  ),
);
