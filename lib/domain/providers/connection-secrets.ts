import "server-only";
import type { ConnectionSecrets } from "@/db/schema";
import { decryptSecret, encryptSecret } from "@/lib/foundation/crypto/secret-box";
import type { ProviderConnection } from "./get-connection";

// Sealed per connection: a sealed value copied onto another connection's row does not open.
const purpose = (connectionId: string) => `provider-connection:${connectionId}`;

export function sealSecrets(connectionId: string, secrets: ConnectionSecrets): string | null {
  return Object.keys(secrets).length === 0 ? null : encryptSecret(JSON.stringify(secrets), purpose(connectionId));
}

export function openSecrets(connection: Pick<ProviderConnection, "id" | "secrets">): ConnectionSecrets {
  return connection.secrets
    ? (JSON.parse(decryptSecret(connection.secrets, purpose(connection.id))) as ConnectionSecrets)
    : {};
}

/** The secrets before the last rotation while they are still honoured for incoming events; none after. */
export function openPreviousSecrets(
  connection: Pick<ProviderConnection, "id" | "previousSecrets" | "previousSecretsUntil">,
  now = new Date(),
): ConnectionSecrets {
  if (!connection.previousSecrets || !connection.previousSecretsUntil || connection.previousSecretsUntil <= now)
    return {};
  return JSON.parse(decryptSecret(connection.previousSecrets, purpose(connection.id))) as ConnectionSecrets;
}
