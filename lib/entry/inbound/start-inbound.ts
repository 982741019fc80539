import "server-only";
import type { Env } from "@/lib/foundation/env";
import { startInboundServer, type InboundServer } from "./inbound-server";

/**
 * The listener as configured (SMTP_INBOUND_*), or null when SMTP_INBOUND_PORT is unset. The server
 * starts it at boot (lib/entry/boot/boot.ts) and `npm run inbound` on its own (inbound-main.ts).
 */
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
