import type { CreatedApiKey } from "./create-api-key";
import type { ApiKeySummary } from "./list-api-keys";

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** The ApiKey resource (docs/api.md#api-keys): never the secret's hash; the secret itself only in the answer of its creation. */
export function serializeApiKey(key: ApiKeySummary) {
  return {
    id: key.id,
    type: "ApiKey" as const,
    name: key.name,
    secretHint: key.secretHint,
    scopes: key.scopes,
    allowedSenders: key.allowedSenders,
    allowedIps: key.allowedIps,
    expiresAt: iso(key.expiresAt),
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: iso(key.lastUsedAt),
    revokedAt: iso(key.revokedAt),
  };
}

/** A key just made: its secret (`password`) shown this once, and the ready-made Basic header value. */
export function serializeCreatedApiKey(key: CreatedApiKey) {
  return {
    ...serializeApiKey({ ...key, secretHint: key.password.slice(0, 4), lastUsedAt: null, revokedAt: null }),
    secret: key.password,
  };
}
