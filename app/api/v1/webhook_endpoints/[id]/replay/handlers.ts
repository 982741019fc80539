import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { replayEndpoint } from "@/lib/flows/webhooks/replay";
import { replaySchema } from "@/lib/flows/webhooks/schemas";
import { assertKnownKeys } from "@/lib/foundation/validation.shared";

// POST /v1/webhook_endpoints/:id/replay {since, mode?} – send again what the endpoint missed (or everything) since a time
export const POST = withApiKey<{ id: string }>(
  { scope: "webhooks:write", body: "json", maxBytes: 1024 },
  async ({ principal, params, body }) => {
    assertKnownKeys(body, replaySchema);
    return ok(await replayEndpoint(principal.workspaceId, params.id, body));
  },
);
