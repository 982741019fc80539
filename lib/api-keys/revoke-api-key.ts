import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { notFound } from "@/lib/errors";
import type { ApiKeySummary } from "./list-api-keys";

/**
 * Revokes a key of the workspace: from the next request on it is a 401 (authenticateApiKey reads
 * revoked_at on every request; nothing caches keys). Revoking twice keeps the first revocation time.
 * Another workspace's key id is NOT_FOUND and changes nothing.
 */
export async function revokeApiKeyOrThrow(workspaceId: string, keyId: string): Promise<ApiKeySummary> {
  const [key] = await (await getDb())
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())`, updatedAt: new Date() })
    .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.id, keyId)))
    .returning({
      id: apiKeys.id,
      name: apiKeys.name,
      secretHint: apiKeys.secretHint,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    });
  if (!key) throw notFound(`API key ${keyId}`, "id");
  return key;
}
