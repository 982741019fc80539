import "server-only";
import { getDb, type Executor } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { sha256Hex } from "@/lib/crypto/secret-box";
import { newId, randomBase62 } from "@/lib/ids";

export interface CreatedApiKey {
  id: string;
  name: string;
  workspaceId: string;
  /** Shown once; only its hash is stored. */
  password: string;
  createdAt: Date;
}

/**
 * Issues an API key: username `key_…` (public) and a 40-character random secret. The secret is high
 * entropy, so a fast SHA-256 is the right hash here (a slow KDF would only cost every request).
 * `fixed` lets the seed use an operator-chosen pair (SEED_API_KEY).
 */
export async function createApiKey(
  input: { workspaceId: string; name: string; fixed?: { username: string; password: string } },
  executor?: Executor,
): Promise<CreatedApiKey> {
  const db = executor ?? (await getDb());
  const id = input.fixed?.username ?? newId("apiKey");
  const password = input.fixed?.password ?? randomBase62(40);
  const [row] = await db
    .insert(apiKeys)
    .values({
      id,
      workspaceId: input.workspaceId,
      name: input.name.trim(),
      secretHash: sha256Hex(password),
      secretHint: password.slice(0, 4),
    })
    .returning();
  return { id: row.id, name: row.name, workspaceId: row.workspaceId, password, createdAt: row.createdAt };
}

export function basicAuthHeader(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
}
