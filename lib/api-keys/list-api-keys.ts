import "server-only";
import { desc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { apiKeys } from "@/db/schema";

export interface ApiKeySummary {
  /** Also the Basic username (key_…). */
  id: string;
  name: string;
  /** The first characters of the secret, to tell keys apart; the secret itself is never stored. */
  secretHint: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** A workspace's API keys, newest first, revoked ones included (for the record). Never the hash. */
export async function listApiKeys(workspaceId: string): Promise<ApiKeySummary[]> {
  return (await getDb())
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      secretHint: apiKeys.secretHint,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.workspaceId, workspaceId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(500);
}
