import "server-only";
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { decryptSecret, encryptSecret } from "@/lib/foundation/crypto/secret-box";

const PURPOSE = "webhook-endpoint-secret";
/** How long a rotated-out secret still signs (docs/webhooks.md#signing-and-verifying). */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3600 * 1000;

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export const sealSecret = (secret: string) => encryptSecret(secret, PURPOSE);

/** Opened secrets by their sealed form (each sealing has a fresh IV, so a rotated secret is a new key here). */
const opened = new Map<string, Webhook>();
const OPENED_MAX = 1000;

export const openSecret = (sealed: string) => decryptSecret(sealed, PURPOSE);

/** The signer of a sealed secret, kept in memory: a delivery does not pay the decryption each time. */
function signerOf(sealed: string): Webhook {
  let signer = opened.get(sealed);
  if (!signer) {
    if (opened.size >= OPENED_MAX) opened.clear();
    opened.set(sealed, (signer = new Webhook(openSecret(sealed))));
  }
  return signer;
}

export interface SigningKeys {
  secretEncrypted: string;
  previousSecretEncrypted: string | null;
  previousSecretExpiresAt: Date | null;
}

/** During a rotation the signature header carries one `v1,<base64>` per valid secret, so a receiver holding either verifies. */
export function signedHeaders(
  keys: SigningKeys,
  webhookId: string,
  payload: string,
  now: Date,
): Record<string, string> {
  const signers = [signerOf(keys.secretEncrypted)];
  if (keys.previousSecretEncrypted && keys.previousSecretExpiresAt && keys.previousSecretExpiresAt > now) {
    signers.push(signerOf(keys.previousSecretEncrypted));
  }
  return {
    "webhook-id": webhookId,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": signers.map((signer) => signer.sign(webhookId, now, payload)).join(" "),
  };
}
