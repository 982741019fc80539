import { apiKeyActor } from "@/lib/records/audit/actor";
import { created, list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { createEndpoint, listEndpoints, parseEndpointListQuery } from "@/lib/flows/webhooks/manage-endpoints";
import { serializeEndpoint } from "@/lib/flows/webhooks/serialize";
import { createEndpointSchema } from "@/lib/flows/webhooks/schemas";
import { assertKnownKeys } from "@/lib/foundation/validation.shared";

// GET /v1/webhook_endpoints – the workspace's endpoints, newest first, keyset cursors
export const GET = withApiKey({ scope: "webhooks:write", body: "none" }, async ({ principal, url }) => {
  const { items, meta } = await listEndpoints(principal.workspaceId, parseEndpointListQuery(url.searchParams));
  return list(meta, items.map(serializeEndpoint));
});

// POST /v1/webhook_endpoints – a new endpoint; the answer carries its signing secret, shown this once
export const POST = withApiKey(
  { scope: "webhooks:write", body: "json", maxBytes: 64 * 1024 },
  async ({ principal, body }) => {
    // Here, not in createEndpoint: the dashboard and the CLI build their bodies themselves.
    assertKnownKeys(body, createEndpointSchema);
    const { endpoint, secret } = await createEndpoint(principal.workspaceId, body, apiKeyActor(principal));
    return created({ ...serializeEndpoint(endpoint), secret });
  },
);
