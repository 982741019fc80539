import "server-only";
import { generateKeyPairSync } from "node:crypto";
import { getDb, type Executor } from "@/db/client";
import { domains } from "@/db/schema";
import { encryptSecret } from "@/lib/crypto/secret-box";
import { invalidParameter } from "@/lib/errors";
import { newId } from "@/lib/ids";

export const DKIM_KEY_PURPOSE = "dkim-private-key";
const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/**
 * Adds a sending domain with its own 2048-bit DKIM key pair (private key encrypted at rest).
 * `verified` skips DNS for local use (CLI `--verified`, the demo seed).
 */
export async function addDomain(
  input: { workspaceId: string; name: string; verified?: boolean },
  executor?: Executor,
) {
  const name = input.name.trim().toLowerCase().replace(/\.$/, "");
  if (!DOMAIN_PATTERN.test(name)) throw invalidParameter("name", `"${input.name}" is not a valid domain name.`);
  const { publicKey, privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "der" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const db = executor ?? (await getDb());
  const now = new Date();
  const [domain] = await db
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
  if (!domain) throw invalidParameter("name", `The domain ${name} is already added to this workspace.`);
  return domain;
}
