import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { deleteInboundRoute } from "@/lib/domain/inbound/delete-inbound-route";
import { getInboundRouteOrThrow } from "@/lib/domain/inbound/get-inbound-route";
import { updateInboundRouteSchema } from "@/lib/domain/inbound/schemas";
import { serializeInboundRoute } from "@/lib/domain/inbound/serialize-inbound-route";
import { updateInboundRoute } from "@/lib/domain/inbound/update-inbound-route";
import { assertKnownKeys } from "@/lib/foundation/validation.shared";

// GET /v1/inbound_routes/:id
export const GET = withApiKey<{ id: string }>({ scope: "inbound:read", body: "none" }, async ({ principal, params }) =>
  ok(serializeInboundRoute(await getInboundRouteOrThrow(principal.workspaceId, params.id))),
);

// PATCH /v1/inbound_routes/:id – any of the fields, checked as on creation
export const PATCH = withApiKey<{ id: string }>(
  { scope: "inbound:write", body: "json", maxBytes: 64 * 1024 },
  async ({ principal, request, params, body }) => {
    assertKnownKeys(body, updateInboundRouteSchema);
    const route = await updateInboundRoute(principal.workspaceId, params.id, body, apiActor(principal, request), {
      allowedSenders: principal.allowedSenders,
    });
    return ok(serializeInboundRoute(route));
  },
);

// DELETE /v1/inbound_routes/:id – mail to its pattern falls to the next route (or is refused)
export const DELETE = withApiKey<{ id: string }>(
  { scope: "inbound:write", body: "none" },
  async ({ principal, request, params }) => {
    const removed = await deleteInboundRoute(principal.workspaceId, params.id, apiActor(principal, request));
    return ok({ id: removed.id, deleted: true });
  },
);
