import "server-only";
import type { ProviderConnection } from "@/lib/domain/providers/get-connection";
import { openSecrets } from "@/lib/domain/providers/connection-secrets";
import { hostRefusal } from "@/lib/domain/providers/connection-host";
import { env } from "@/lib/foundation/env";
import { processSingleton } from "@/lib/foundation/process-singleton";
import type { DeliveryProvider } from "../provider";
import { getDeliveryProvider } from "../registry";
import { localProvider } from "../providers/local/local-provider";
import { resendProvider } from "../providers/resend/resend-provider";
import { sesProvider } from "../providers/ses/ses-provider";
import { simulatorProvider } from "../providers/simulator/simulator-provider";
import { smtpProvider } from "../providers/smtp/smtp-provider";
import { limitedProvider } from "./limits";

/** The instance's own connection (its env settings): every workspace has it, under this name and id. */
export const DEFAULT_CONNECTION = "default";

/** One connection of a route, with the provider that sends through it. */
export interface Hop {
  /** The connection's id (`pcon_…`), or `default`. */
  connectionId: string;
  name: string;
  provider: DeliveryProvider;
  ratePerSecond: number | null;
  concurrency: number | null;
}

export function defaultHop(provider: DeliveryProvider = getDeliveryProvider()): Hop {
  return {
    connectionId: DEFAULT_CONNECTION,
    name: DEFAULT_CONNECTION,
    provider,
    ratePerSecond: null,
    concurrency: null,
  };
}

/** Built once per connection version; a changed connection (new updatedAt) builds anew, so rotation needs no restart. */
const built = processSingleton("routing.hops", () => new Map<string, { at: number; hop: Promise<Hop> }>());
/** How long a built hop (and the host check it made) is reused. */
const HOP_TTL_MS = 60_000;

export function hopOf(connection: ProviderConnection): Promise<Hop> {
  const key = `${connection.id}@${connection.updatedAt.getTime()}`;
  const now = Date.now();
  const cached = built.get(key);
  if (cached && now - cached.at < HOP_TTL_MS) return cached.hop;
  if (built.size > 10_000) built.clear();
  const hop = buildHop(connection);
  built.set(key, { at: now, hop });
  hop.catch(() => built.delete(key));
  return hop;
}

async function buildHop(connection: ProviderConnection): Promise<Hop> {
  const base = {
    connectionId: connection.id,
    name: connection.name,
    ratePerSecond: connection.ratePerSecond,
    concurrency: connection.concurrency,
  };
  const host = hostOf(connection);
  // Checked again here, not only when written: a name may resolve elsewhere since.
  const refused = host ? await hostRefusal(host) : null;
  if (refused) return { ...base, provider: refusedProvider(connection, refused) };
  return { ...base, provider: limitedProvider({ ...base, provider: providerOf(connection) }) };
}

function hostOf({ kind, settings }: ProviderConnection): string | null {
  const url =
    kind === "smtp" ? settings.url : kind === "resend" ? settings.baseUrl : kind === "ses" ? settings.endpoint : null;
  return url ? new URL(url).hostname : null;
}

function providerOf(connection: ProviderConnection): DeliveryProvider {
  const { settings } = connection;
  const secrets = openSecrets(connection);
  switch (connection.kind) {
    case "smtp": {
      const url = new URL(settings.url!);
      if (settings.user) {
        url.username = encodeURIComponent(settings.user);
        url.password = encodeURIComponent(secrets.password ?? "");
      }
      const values = env();
      return smtpProvider({
        url: url.toString(),
        poolSize: values.SMTP_POOL_SIZE,
        rejectUnauthorized: values.SMTP_TLS_REJECT_UNAUTHORIZED,
        timeoutMs: values.SMTP_TIMEOUT_MS,
        bounceDomain: values.BOUNCE_DOMAIN,
      });
    }
    case "resend":
      return resendProvider({ apiKey: secrets.apiKey ?? "", baseUrl: settings.baseUrl });
    case "ses":
      return sesProvider({
        region: settings.region!,
        configurationSet: settings.configurationSet,
        endpoint: settings.endpoint,
        credentials: { accessKeyId: settings.accessKeyId ?? "", secretAccessKey: secrets.secretAccessKey ?? "" },
      });
    case "simulator":
      return simulatorProvider;
    case "local":
      return localProvider;
  }
}

/** A connection whose host is no longer allowed: nothing leaves through it, and the route moves on. */
function refusedProvider(connection: ProviderConnection, reason: string): DeliveryProvider {
  return {
    name: connection.kind,
    description: `the connection ${connection.name}`,
    transactional: false,
    confirmsDelivery: false,
    needsMime: false,
    send: async () => ({ outcome: "retry", diagnostic: `Its host is refused: ${reason}.`, notAccepted: true }),
  };
}
