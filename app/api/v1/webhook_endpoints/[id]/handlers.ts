import { apiKeyActor } from "@/lib/records/audit/actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { deleteEndpoint, getEndpointOrThrow, updateEndpoint } from "@/lib/flows/webhooks/manage-endpoints";
import { serializeEndpoint } from "@/lib/flows/webhooks/serialize";
import { updateEndpointSchema } from "@/lib/flows/webhooks/schemas";
import { assertKnownKeys } from "@/lib/foundation/validation.shared";

// GET /v1/webhook_endpoints/:id
export const GET = withApiKey<{ id: string }>(
  { scope: "webhooks:write", body: "none" },
  async ({ principal, params }) => ok(serializeEndpoint(await getEndpointOrThrow(principal.workspaceId, params.id))),
);

// PATCH /v1/webhook_endpoints/:id – url, description, eventTypes, enabled (enabling clears the service's reason)
export const PATCH = withApiKey<{ id: string }>(
  { scope: "webhooks:write", body: "json", maxBytes: 64 * 1024 },
  async ({ principal, params, body }) => {
    assertKnownKeys(body, updateEndpointSchema);
    return ok(serializeEndpoint(await updateEndpoint(principal.workspaceId, params.id, body, apiKeyActor(principal))));
  },
);

// DELETE /v1/webhook_endpoints/:id – with its deliveries and attempt log
export const DELETE = withApiKey<{ id: string }>(
  { scope: "webhooks:write", body: "none" },
  async ({ principal, params }) => {
    await deleteEndpoint(principal.workspaceId, params.id, apiKeyActor(principal));
    return ok({ id: params.id, deleted: true });
  },
);
