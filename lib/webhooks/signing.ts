import "server-only";
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { decryptSecret, encryptSecret } from "@/lib/crypto/secret-box";

const PURPOSE = "webhook-endpoint-secret";
/** How long a rotated-out secret still signs (docs/webhooks.md#rotating-the-secret). */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3600 * 1000;

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export const sealSecret = (secret: string) => encryptSecret(secret, PURPOSE);
export const openSecret = (sealed: string) => decryptSecret(sealed, PURPOSE);

export interface SigningKeys {
  secretEncrypted: string;
  previousSecretEncrypted: string | null;
  previousSecretExpiresAt: Date | null;
}

/**
 * The Standard Webhooks headers of one request. During a rotation the signature header carries one
 * `v1,<base64>` per valid secret, space-separated, so a receiver holding either verifies it.
 */
export function signedHeaders(keys: SigningKeys, webhookId: string, payload: string, now: Date): Record<string, string> {
  const secrets = [openSecret(keys.secretEncrypted)];
  if (keys.previousSecretEncrypted && keys.previousSecretExpiresAt && keys.previousSecretExpiresAt > now) {
    secrets.push(openSecret(keys.previousSecretEncrypted));
  }
  return {
    "webhook-id": webhookId,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(webhookId, now, payload)).join(" "),
  };
}
