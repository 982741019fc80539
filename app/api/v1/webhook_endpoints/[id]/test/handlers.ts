import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { sendTestEvent } from "@/lib/flows/webhooks/send-test-event";
import { assertKnownKeys, NO_FIELDS } from "@/lib/foundation/validation.shared";

// POST /v1/webhook_endpoints/:id/test – queue a signed `webhook.test` event to this endpoint alone
export const POST = withApiKey<{ id: string }>(
  { scope: "webhooks:write", body: "optional", maxBytes: 1024 },
  async ({ principal, params, body }) => {
    assertKnownKeys(body, NO_FIELDS);
    return ok(await sendTestEvent(principal.workspaceId, params.id));
  },
);
