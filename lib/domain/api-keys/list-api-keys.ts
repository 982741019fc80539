import "server-only";
import { desc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { apiKeys } from "@/db/schema";

export interface ApiKeySummary {
  id: string;
  name: string;
  /** The first characters of the secret, to tell keys apart; the secret itself is never stored. */
  secretHint: string;
  scopes: string[];
  allowedSenders: string[];
  allowedIps: string[];
  expiresAt: Date | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** What a key shows to the dashboard, the CLI and the API: never the hash. */
export const API_KEY_SUMMARY_COLUMNS = {
  id: apiKeys.id,
  name: apiKeys.name,
  secretHint: apiKeys.secretHint,
  scopes: apiKeys.scopes,
  allowedSenders: apiKeys.allowedSenders,
  allowedIps: apiKeys.allowedIps,
  expiresAt: apiKeys.expiresAt,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
};

export async function listApiKeys(workspaceId: string): Promise<ApiKeySummary[]> {
  return (await getDb())
    .select(API_KEY_SUMMARY_COLUMNS)
    .from(apiKeys)
    .where(eq(apiKeys.workspaceId, workspaceId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(500);
}

/** True once the key's expiry has passed (authenticateApiKey refuses it from then on). */
export function isExpired(key: Pick<ApiKeySummary, "expiresAt">, now = new Date()): boolean {
  return key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime();
}
