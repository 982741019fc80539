import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { getApiMessageOrThrow } from "@/lib/domain/messages/get-api-message";
import { rescheduleMessage, scheduledAtOfPatch } from "@/lib/domain/messages/reschedule-message";
import { serializeMessage } from "@/lib/domain/messages/serialize";

// GET /v1/email_messages/:id – one message with its delivery timestamps
export const GET = withApiKey<{ id: string }>({ scope: "emails:read", body: "none" }, async ({ principal, params }) =>
  ok(serializeMessage(await getApiMessageOrThrow(principal.workspaceId, params.id))),
);

// PATCH /v1/email_messages/:id – { scheduledAt } only: moves a message still waiting to a new time; 409 once handed over
export const PATCH = withApiKey<{ id: string }>(
  { scope: "emails:send", body: "json" },
  async ({ principal, params, body }) =>
    ok(
      serializeMessage(
        await rescheduleMessage({
          workspaceId: principal.workspaceId,
          messageId: params.id,
          scheduledAt: scheduledAtOfPatch(body),
          by: `through the API (key ${principal.apiKeyId})`,
        }),
      ),
    ),
);
