import "server-only";
import type { Env } from "@/lib/foundation/env";
import { startInboundServer, type InboundServer } from "./inbound-server";

/** Null when SMTP_INBOUND_PORT is unset; started at boot or by `npm run inbound`. */
export async function startConfiguredInbound(config: Env): Promise<InboundServer | null> {
  if (config.SMTP_INBOUND_PORT === undefined || !config.BOUNCE_DOMAIN) return null;
  return startInboundServer({
    port: config.SMTP_INBOUND_PORT,
    host: config.SMTP_INBOUND_HOST,
    bounceDomain: config.BOUNCE_DOMAIN,
    maxBytes: config.SMTP_INBOUND_MAX_BYTES,
    maxConnections: config.SMTP_INBOUND_MAX_CONNECTIONS,
    timeoutMs: config.SMTP_INBOUND_TIMEOUT_MS,
  });
}
