import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { revokeApiKeyOrThrow } from "@/lib/domain/api-keys/revoke-api-key";
import { serializeApiKey } from "@/lib/domain/api-keys/serialize";

// DELETE /v1/api_keys/:id – revoke: a 401 from the next request on (revoking twice keeps the first time)
export const DELETE = withApiKey<{ id: string }>(
  { scope: "keys:write", body: "none" },
  async ({ principal, request, params }) =>
    ok(serializeApiKey(await revokeApiKeyOrThrow(principal.workspaceId, params.id, apiActor(principal, request)))),
);
