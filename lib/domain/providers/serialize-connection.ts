import { SECRET_FIELDS } from "./schemas";
import { openSecrets } from "./connection-secrets";
import type { ProviderConnection } from "./get-connection";

/** A connection as the API, the CLI and the dashboard show it: its settings, and which secrets are set (never their values). */
export function serializeConnection(connection: ProviderConnection) {
  const secrets = openSecrets(connection);
  return {
    id: connection.id,
    type: "ProviderConnection" as const,
    name: connection.name,
    kind: connection.kind,
    settings: connection.settings,
    secretsSet: SECRET_FIELDS.filter((field) => secrets[field] !== undefined),
    ratePerSecond: connection.ratePerSecond,
    concurrency: connection.concurrency,
    eventsPath: eventsPathOf(connection),
    createdAt: connection.createdAt.toISOString(),
    updatedAt: connection.updatedAt.toISOString(),
  };
}

/** Where the provider posts this connection's events (Resend webhooks, SES's SNS), or null for kinds without events. */
export function eventsPathOf(connection: Pick<ProviderConnection, "id" | "kind">): string | null {
  if (connection.kind === "resend") return `/api/provider-events/resend/${connection.id}`;
  if (connection.kind === "ses") return `/api/provider-events/ses/${connection.id}`;
  return null;
}
