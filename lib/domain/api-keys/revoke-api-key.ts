import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { apiKeys } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { notFound } from "@/lib/foundation/errors";
import { API_KEY_SUMMARY_COLUMNS, type ApiKeySummary } from "./list-api-keys";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";

/** A 401 from the next request here, within SHORT_LIVED_CACHE_MS elsewhere; revoking twice keeps the first time. */
export async function revokeApiKeyOrThrow(
  workspaceId: string,
  keyId: string,
  actor: AuditActor,
): Promise<ApiKeySummary> {
  const revoked = await (
    await getDb()
  ).transaction(async (tx) => {
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
  invalidateShortLivedCaches();
  return revoked;
}
