import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { deleteConnection } from "@/lib/domain/providers/delete-connection";
import { getConnectionOrThrow } from "@/lib/domain/providers/get-connection";
import { updateConnectionSchema } from "@/lib/domain/providers/schemas";
import { serializeConnection } from "@/lib/domain/providers/serialize-connection";
import { updateConnection } from "@/lib/domain/providers/update-connection";
import { assertKnownKeys } from "@/lib/foundation/validation.shared";

// GET /v1/providers/:id
export const GET = withApiKey<{ id: string }>(
  { scope: "providers:write", body: "none" },
  async ({ principal, params }) =>
    ok(serializeConnection(await getConnectionOrThrow(principal.workspaceId, params.id))),
);

// PATCH /v1/providers/:id – any field but kind; new secrets apply to the next hand-off, the old ones verify events a day
export const PATCH = withApiKey<{ id: string }>(
  { scope: "providers:write", body: "json", maxBytes: 32 * 1024 },
  async ({ principal, request, params, body }) => {
    assertKnownKeys(body, updateConnectionSchema);
    const connection = await updateConnection(principal.workspaceId, params.id, body, apiActor(principal, request));
    return ok(serializeConnection(connection));
  },
);

// DELETE /v1/providers/:id – refused while a routing rule names it
export const DELETE = withApiKey<{ id: string }>(
  { scope: "providers:write", body: "none" },
  async ({ principal, request, params }) => {
    const removed = await deleteConnection(principal.workspaceId, params.id, apiActor(principal, request));
    return ok({ id: removed.id, deleted: true });
  },
);
