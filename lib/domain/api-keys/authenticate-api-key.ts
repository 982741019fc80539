import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import { getDb, type Db } from "@/db/client";
import { preparedFor } from "@/db/prepared";
import { apiKeys } from "@/db/schema";
import { safeEqual, sha256Hex } from "@/lib/foundation/crypto/secret-box";
import { AppError } from "@/lib/foundation/errors";
import { ShortLivedCache } from "@/lib/foundation/short-lived-cache";
import { ipAllowed } from "./restrictions";
import { grants, scopeAlternatives, type ScopeNeed } from "./scopes.shared";

export interface ApiPrincipal {
  apiKeyId: string;
  workspaceId: string;
  /** The key's name, for the audit log's actor. */
  name: string;
  scopes: string[];
  /** Exact addresses or domains a send may use as `from`; empty = any verified sender. */
  allowedSenders: string[];
}

/** Never reveals which part was wrong: every failure is the same 401. */
const unauthorized = () =>
  new AppError(
    "UNAUTHORIZED",
    "Missing or invalid credentials. Send HTTP Basic auth with your API key username (key_…) and password.",
  );

// Hash of a random value: unknown usernames still cost one comparison, so timing tells nothing.
const DECOY_HASH = sha256Hex("decoy-secret-never-issued");

/**
 * HTTP Basic, also `Basic username:password` verbatim as the real client may send. The key row is cached at most
 * SHORT_LIVED_CACHE_MS, so a revocation holds within that bound everywhere. Expired: 401; outside its IP allow list: 403.
 */
export async function authenticateApiKey(
  authorization: string | null,
  client: { ip: string | null } = { ip: null },
): Promise<ApiPrincipal> {
  const credentials = parseBasic(authorization);
  if (!credentials) throw unauthorized();
  const db = await getDb();
  const key = await keyRows.get(db, credentials.username, () => findKey(db, credentials.username));
  const matches = safeEqual(sha256Hex(credentials.password), key?.secretHash ?? DECOY_HASH);
  if (!key || !matches) throw unauthorized();
  if (key.expiresAt && key.expiresAt.getTime() <= Date.now()) {
    throw new AppError("UNAUTHORIZED", `This API key expired at ${key.expiresAt.toISOString()}. Create a new key.`);
  }
  if (!ipAllowed(key.allowedIps, client.ip ?? "")) {
    throw new AppError(
      "FORBIDDEN",
      `This API key may not be used from ${client.ip ?? "an unknown address"}: it has an IP allow list.`,
    );
  }
  if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > 60_000) {
    key.lastUsedAt = new Date(); // the cached row too, so the next requests do not write again
    await db.update(apiKeys).set({ lastUsedAt: key.lastUsedAt }).where(eq(apiKeys.id, key.id));
  }
  return {
    apiKeyId: key.id,
    workspaceId: key.workspaceId,
    name: key.name,
    scopes: key.scopes,
    allowedSenders: key.allowedSenders,
  };
}

type KeyRow = Awaited<ReturnType<typeof findKey>>;
const keyRows = new ShortLivedCache<KeyRow>();

/** The key's row if it exists and is not revoked, else null (cached as such: an unknown key is not read again this second). */
async function findKey(db: Db, id: string) {
  const query = preparedFor(db, "authenticate-api-key", () =>
    db
      .select({
        id: apiKeys.id,
        workspaceId: apiKeys.workspaceId,
        name: apiKeys.name,
        secretHash: apiKeys.secretHash,
        scopes: apiKeys.scopes,
        allowedSenders: apiKeys.allowedSenders,
        allowedIps: apiKeys.allowedIps,
        expiresAt: apiKeys.expiresAt,
        lastUsedAt: apiKeys.lastUsedAt,
      })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, sql.placeholder("id")), isNull(apiKeys.revokedAt)))
      .prepare("authenticate_api_key"),
  );
  const [key] = await query.execute({ id });
  return key ?? null;
}

function parseBasic(header: string | null): { username: string; password: string } | null {
  const match = header?.match(/^Basic\s+(\S+)\s*$/i);
  if (!match) return null;
  const token = match[1];
  const decoded = token.includes(":") ? token : Buffer.from(token, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon <= 0) return null;
  const username = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  if (!/^key_[0-9A-Za-z]{16}$/.test(username) || password.length === 0 || password.length > 256) return null;
  return { username, password };
}

/** 403 naming the scope a request needs and the key lacks, and any alternative to it (docs/api.md#scopes). */
export function assertScope(principal: Pick<ApiPrincipal, "scopes">, needed: ScopeNeed): void {
  if (grants(principal.scopes, needed)) return;
  const [first, ...others] = scopeAlternatives(needed);
  const has = `it has ${principal.scopes.join(", ")}`;
  throw new AppError(
    "FORBIDDEN",
    others.length === 0
      ? `This API key lacks the ${first} scope (${has}). Use a key created with ${first} or full.`
      : `This API key lacks the ${first} scope (or ${others.join(" or ")}; ${has}). Use a key created with ${[first, ...others].join(", ")} or full.`,
  );
}
