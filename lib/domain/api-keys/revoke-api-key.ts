import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { apiKeys } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { notFound } from "@/lib/foundation/errors";
import { API_KEY_SUMMARY_COLUMNS, type ApiKeySummary } from "./list-api-keys";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";

/**
 * Revokes a key of the workspace: from the next request on it is a 401 in this process, and within a
 * second in every other (authenticateApiKey's key rows live at most that long: lib/foundation/short-lived-cache.ts).
 * Revoking twice keeps the first revocation time and audits only the first (`api_key.revoke`, in the
 * same transaction). Another workspace's key id is NOT_FOUND and changes nothing.
 */
export async function revokeApiKeyOrThrow(workspaceId: string, keyId: string, actor: AuditActor): Promise<ApiKeySummary> {
  const revoked = await (await getDb()).transaction(async (tx) => {
    const where = and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.id, keyId));
    const [current] = await tx.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(where).for("update");
    if (!current) throw notFound(`API key ${keyId}`, "id");
    const [key] = await tx
      .update(apiKeys)
      .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())`, updatedAt: new Date() })
      .where(where)
      .returning(API_KEY_SUMMARY_COLUMNS);
    if (!current.revokedAt) {
      await recordAudit(tx, {
        workspaceId,
        actor,
        action: "api_key.revoke",
        target: { type: "api_key", id: keyId },
        before: { revokedAt: null },
        after: { revokedAt: key.revokedAt },
      });
    }
    return key;
  });
  invalidateShortLivedCaches(); // this process's cached key row (lib/foundation/short-lived-cache.ts); other processes within a second
  return revoked;
}
