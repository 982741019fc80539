import { apiActor } from "@/lib/entry/api/api-actor";
import { created, list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { createInboundRoute } from "@/lib/domain/inbound/create-inbound-route";
import { listInboundRoutes, parseInboundRouteListQuery } from "@/lib/domain/inbound/list-inbound-routes";
import { createInboundRouteSchema } from "@/lib/domain/inbound/schemas";
import { serializeInboundRoute } from "@/lib/domain/inbound/serialize-inbound-route";
import { assertKnownKeys } from "@/lib/foundation/validation.shared";

// GET /v1/inbound_routes – newest first, keyset cursors; ?domain=idom_…|name for one domain's
export const GET = withApiKey({ scope: "inbound:read", body: "none" }, async ({ principal, url }) => {
  const { items, meta } = await listInboundRoutes(principal.workspaceId, parseInboundRouteListQuery(url.searchParams));
  return list(meta, items.map(serializeInboundRoute));
});

// POST /v1/inbound_routes – a recipient pattern on one of the workspace's inbound domains → actions
export const POST = withApiKey(
  { scope: "inbound:write", body: "json", maxBytes: 64 * 1024 },
  async ({ principal, request, body }) => {
    assertKnownKeys(body, createInboundRouteSchema);
    const route = await createInboundRoute(principal.workspaceId, body, apiActor(principal, request), {
      allowedSenders: principal.allowedSenders,
    });
    return created(serializeInboundRoute(route));
  },
);
