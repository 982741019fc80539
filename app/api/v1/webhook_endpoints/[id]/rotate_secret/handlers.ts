import { apiKeyActor } from "@/lib/records/audit/actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { rotateEndpointSecret } from "@/lib/flows/webhooks/manage-endpoints";
import { serializeEndpoint } from "@/lib/flows/webhooks/serialize";
import { assertKnownKeys, NO_FIELDS } from "@/lib/foundation/validation.shared";

// POST /v1/webhook_endpoints/:id/rotate_secret – a new secret (shown once); the old one signs alongside for 24 hours
export const POST = withApiKey<{ id: string }>(
  { scope: "webhooks:write", body: "optional", maxBytes: 1024 },
  async ({ principal, params, body }) => {
    assertKnownKeys(body, NO_FIELDS);
    const { endpoint, secret } = await rotateEndpointSecret(principal.workspaceId, params.id, apiKeyActor(principal));
    return ok({ ...serializeEndpoint(endpoint), secret });
  },
);
