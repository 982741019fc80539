import "server-only";
import { AUDIT_SYSTEM_ACTOR, type AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { and, eq } from "drizzle-orm";
import { generateKeyPair } from "node:crypto";
import { promisify } from "node:util";
import { getDb, type Executor, type Tx } from "@/db/client";
import { domains } from "@/db/schema";
import type { Domain } from "./get-domain-or-throw";
import { encryptSecret } from "@/lib/foundation/crypto/secret-box";
import { isReservedDomainName, TEST_SENDER_DOMAIN } from "@/lib/foundation/addresses/test-sender.shared";
import { invalidParameter } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";

export const DKIM_KEY_PURPOSE = "dkim-private-key";
const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export interface AddDomainInput {
  workspaceId: string;
  name: string;
  verified?: boolean;
  actor?: AuditActor;
}

/** With its own DKIM key pair (private key encrypted at rest); `verified` skips DNS for local use. */
export async function addDomain(input: AddDomainInput): Promise<Domain> {
  const db = await getDb();
  const { name, keys } = await domainToAdd(db, input);
  const added = await db.transaction((tx) => insertDomain(tx, input, name, keys));
  invalidateShortLivedCaches();
  return added;
}

/** The same in the caller's transaction; invalidating the short-lived caches after its commit is the caller's part. */
export async function addDomainIn(tx: Tx, input: AddDomainInput): Promise<Domain> {
  const { name, keys } = await domainToAdd(tx, input);
  return insertDomain(tx, input, name, keys);
}

/** The normalized name, refused when taken, and a new key pair. */
async function domainToAdd(db: Executor, input: AddDomainInput) {
  const name = input.name.trim().toLowerCase().replace(/\.$/, "");
  if (!DOMAIN_PATTERN.test(name)) throw invalidParameter("name", `"${input.name}" is not a valid domain name.`);
  // Verified here, the test sender's domain would send through a real provider: its rule holds only unowned.
  if (isReservedDomainName(name)) {
    throw invalidParameter(
      "name",
      `${name} is reserved: every workspace may already send from ${TEST_SENDER_DOMAIN} while nothing leaves this machine. Add a domain of your own.`,
    );
  }
  const [taken] = await db
    .select({ id: domains.id })
    .from(domains)
    .where(and(eq(domains.workspaceId, input.workspaceId), eq(domains.name, name)));
  if (taken) throw alreadyAdded(name);
  // Off the event loop: generating a 2048-bit key would stall every other request.
  const { publicKey, privateKey } = await promisify(generateKeyPair)("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "der" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  return { name, keys: { publicKey, privateKey } };
}

async function insertDomain(
  tx: Tx,
  input: AddDomainInput,
  name: string,
  keys: { publicKey: Buffer; privateKey: string },
): Promise<Domain> {
  const { publicKey, privateKey } = keys;
  const now = new Date();
  const [domain] = await tx
    .insert(domains)
    .values({
      id: newId("domain"),
      workspaceId: input.workspaceId,
      name,
      status: input.verified ? "VERIFIED" : "PENDING",
      verifiedAt: input.verified ? now : null,
      dkimSelector: "postwerk",
      dkimPublicKey: publicKey.toString("base64"),
      dkimPrivateKeyEncrypted: encryptSecret(privateKey, DKIM_KEY_PURPOSE),
    })
    .onConflictDoNothing()
    .returning();
  if (!domain) throw alreadyAdded(name);
  await recordAudit(tx, {
    workspaceId: domain.workspaceId,
    actor: input.actor ?? AUDIT_SYSTEM_ACTOR,
    action: "domain.add",
    target: { type: "domain", id: domain.id },
    after: { name: domain.name, status: domain.status },
  });
  return domain;
}

const alreadyAdded = (name: string) =>
  invalidParameter("name", `The domain ${name} is already added to this workspace.`);
