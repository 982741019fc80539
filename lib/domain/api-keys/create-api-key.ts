import "server-only";
import { getDb, type Tx } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { sha256Hex } from "@/lib/foundation/crypto/secret-box";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { invalidParameter } from "@/lib/foundation/errors";
import { newId, randomBase62 } from "@/lib/foundation/ids";
import { normalizeCidr, normalizeSenderRule } from "./restrictions";
import type { ApiScope } from "./scopes.shared";

export interface ApiKeyRestrictions {
  /** Default `["full"]`. `full` with other scopes is just `full`. */
  scopes?: ApiScope[];
  allowedSenders?: string[];
  allowedIps?: string[];
  expiresAt?: Date | null;
}

export interface CreatedApiKey {
  id: string;
  name: string;
  workspaceId: string;
  password: string;
  scopes: string[];
  allowedSenders: string[];
  allowedIps: string[];
  expiresAt: Date | null;
  createdAt: Date;
}

export type CreateApiKeyInput = {
  workspaceId: string;
  name: string;
  actor: AuditActor;
  fixed?: { username: string; password: string };
} & ApiKeyRestrictions;

/**
 * The secret is high-entropy, so a fast SHA-256 is the right hash (a slow KDF would only cost every request). Scopes and
 * restrictions are fixed for the key's life. `fixed` lets the seed use SEED_API_KEY.
 */
export async function createApiKey(input: CreateApiKeyInput): Promise<CreatedApiKey> {
  normalizeRestrictions(input); // a refused grant opens no transaction
  return (await getDb()).transaction((tx) => createApiKeyIn(tx, input));
}

/** The same in the caller's transaction. */
export async function createApiKeyIn(tx: Tx, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const grant = normalizeRestrictions(input);
  const id = input.fixed?.username ?? newId("apiKey");
  const password = input.fixed?.password ?? randomBase62(40);
  const [row] = await tx
    .insert(apiKeys)
    .values({
      id,
      workspaceId: input.workspaceId,
      name: input.name.trim(),
      secretHash: sha256Hex(password),
      secretHint: password.slice(0, 4),
      ...grant,
    })
    .returning();
  const { scopes, allowedSenders, allowedIps, expiresAt } = row;
  await recordAudit(tx, {
    workspaceId: row.workspaceId,
    actor: input.actor,
    action: "api_key.create",
    target: { type: "api_key", id: row.id },
    after: { name: row.name, scopes, allowedSenders, allowedIps, expiresAt },
  });
  return {
    id: row.id,
    name: row.name,
    workspaceId: row.workspaceId,
    password,
    scopes: row.scopes,
    allowedSenders: row.allowedSenders,
    allowedIps: row.allowedIps,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
  };
}

/** Checks and normalizes scopes and restrictions; a bad entry is named (`allowedIps[1]`). */
export function normalizeRestrictions(input: ApiKeyRestrictions, now = new Date()) {
  const scopes = input.scopes?.length ? [...new Set(input.scopes)].sort() : ["full"];
  const normalize = (
    field: string,
    values: string[] | undefined,
    parse: (value: string) => string | null,
    what: string,
  ) => [
    ...new Set(
      (values ?? []).map(
        (value, index) => parse(value) ?? fail(`${field}[${index}]`, `${JSON.stringify(value)} is not ${what}.`),
      ),
    ),
  ];
  const allowedSenders = normalize(
    "allowedSenders",
    input.allowedSenders,
    normalizeSenderRule,
    "an email address or a domain",
  );
  const allowedIps = normalize("allowedIps", input.allowedIps, normalizeCidr, "an IP address or CIDR range");
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt && (Number.isNaN(expiresAt.getTime()) || expiresAt <= now))
    fail("expiresAt", "The expiry must be a date in the future.");
  return { scopes: scopes.includes("full") ? ["full"] : scopes, allowedSenders, allowedIps, expiresAt };
}

function fail(param: string, message: string): never {
  throw invalidParameter(param, message);
}

export function basicAuthHeader(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
}
