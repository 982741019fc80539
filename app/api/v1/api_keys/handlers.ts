import { apiActor } from "@/lib/entry/api/api-actor";
import { created, list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { createApiKeyAsKey } from "@/lib/domain/api-keys/create-api-key-as-key";
import { listApiKeys } from "@/lib/domain/api-keys/list-api-keys";
import { apiKeyGrantSchema } from "@/lib/domain/api-keys/schemas";
import { serializeApiKey, serializeCreatedApiKey } from "@/lib/domain/api-keys/serialize";
import { parseBody } from "@/lib/foundation/validation.shared";

// GET /v1/api_keys – the workspace's keys, newest first, revoked ones included; never a secret
export const GET = withApiKey({ scope: "keys:write", body: "none" }, async ({ principal }) => {
  const keys = await listApiKeys(principal.workspaceId);
  return list({ count: keys.length }, keys.map(serializeApiKey));
});

// POST /v1/api_keys – a new key; the answer carries its secret, shown this once. Never more than the calling key may do.
export const POST = withApiKey(
  { scope: "keys:write", body: "json", maxBytes: 16 * 1024 },
  async ({ principal, request, body }) => {
    const grant = parseBody(apiKeyGrantSchema, body);
    const key = await createApiKeyAsKey({
      workspaceId: principal.workspaceId,
      creatorKeyId: principal.apiKeyId,
      grant,
      actor: apiActor(principal, request),
    });
    return created(serializeCreatedApiKey(key));
  },
);
