import "server-only";
import { createPrivateKey, type KeyObject } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { domains } from "@/db/schema/index";
import { decryptSecret } from "@/lib/foundation/crypto/secret-box";
import { DKIM_KEY_PURPOSE } from "@/lib/domain/domains/add-domain";

/** What nodemailer's `dkim` option takes for one signature. */
export interface DkimSigningKey {
  domainName: string;
  keySelector: string;
  /** Parsed once: signing with a PEM string would parse it again for every message. */
  privateKey: KeyObject;
}

/**
 * Decrypted keys are kept for a few minutes per workspace and domain: decrypting is cheap, but the
 * lookup is one query per message otherwise. A domain removed and added again (a new key pair) signs
 * with its old key for at most this long; receivers then see a failing signature, not a lost message.
 */
const CACHE_TTL_MS = 5 * 60_000;
const cache = new Map<string, { key: DkimSigningKey; expiresAt: number }>();

/**
 * Decrypted and parsed keys by their sealed form, for callers that read the domain row themselves (the
 * batch delivery path reads every domain of a batch in one query). Keyed by the ciphertext, so a new
 * key pair is never signed with the old key; the TTL only bounds how long removed keys stay in memory.
 */
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

/**
 * The DKIM key of the sending domain within the message's workspace (the domain row named exactly
 * like the sender's domain, as assertSenderDomainVerified requires), or null when the workspace has no
 * such domain.
 */
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

/** Drops every cached key (tests; a future "rotate DKIM key" use case). */
export function forgetDkimKeys(): void {
  cache.clear();
  unsealed.clear();
}

/** The TXT record value publishing a domain's public key (base64 SPKI DER) at `<selector>._domainkey.<domain>`. */
export function dkimTxtRecord(publicKeyBase64: string): string {
  return `v=DKIM1; k=rsa; p=${publicKeyBase64}`;
}
