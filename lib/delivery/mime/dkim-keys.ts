import "server-only";
import { createPrivateKey, type KeyObject } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { domains } from "@/db/schema/index";
import { decryptSecret } from "@/lib/foundation/crypto/secret-box";
import { DKIM_KEY_PURPOSE } from "@/lib/domain/domains/add-domain";

export interface DkimSigningKey {
  domainName: string;
  keySelector: string;
  /** Parsed once: signing with a PEM string would parse it again for every message. */
  privateKey: KeyObject;
}

// Saves a query per message; a domain re-added with a new key pair signs with the old one for at most this long.
const CACHE_TTL_MS = 5 * 60_000;
const cache = new Map<string, { key: DkimSigningKey; expiresAt: number }>();

// Keyed by the ciphertext, so a new key pair is never signed with the old key; the TTL bounds memory.
const unsealed = new Map<string, { key: KeyObject; expiresAt: number }>();

export function dkimSigningKeyFromRow(domainName: string, row: { selector: string; sealed: string }): DkimSigningKey {
  const now = Date.now();
  let hit = unsealed.get(row.sealed);
  if (!hit || hit.expiresAt <= now) {
    if (unsealed.size > 1000)
      for (const [sealed, entry] of unsealed) if (entry.expiresAt <= now) unsealed.delete(sealed);
    hit = { key: createPrivateKey(decryptSecret(row.sealed, DKIM_KEY_PURPOSE)), expiresAt: now + CACHE_TTL_MS };
    unsealed.set(row.sealed, hit);
  }
  return { domainName: domainName.toLowerCase(), keySelector: row.selector, privateKey: hit.key };
}

/** The key of the workspace's domain named exactly as the sender's, or null when it has none. */
export async function getDkimSigningKey(
  db: Executor,
  workspaceId: string,
  domainName: string,
): Promise<DkimSigningKey | null> {
  const name = domainName.toLowerCase();
  const cacheKey = `${workspaceId}\n${name}`;
  const hit = cache.get(cacheKey);
  if (hit && hit.expiresAt > Date.now()) return hit.key;
  const [row] = await db
    .select({ selector: domains.dkimSelector, sealed: domains.dkimPrivateKeyEncrypted })
    .from(domains)
    .where(and(eq(domains.workspaceId, workspaceId), eq(domains.name, name)));
  // A missing domain is not cached: it may be added a moment later.
  if (!row) return null;
  const key = dkimSigningKeyFromRow(name, row);
  cache.set(cacheKey, { key, expiresAt: Date.now() + CACHE_TTL_MS });
  return key;
}

/** Drops every cached key (tests). */
export function forgetDkimKeys(): void {
  cache.clear();
  unsealed.clear();
}

/** The TXT record value publishing a domain's public key (base64 SPKI DER) at `<selector>._domainkey.<domain>`. */
export function dkimTxtRecord(publicKeyBase64: string): string {
  return `v=DKIM1; k=rsa; p=${publicKeyBase64}`;
}
