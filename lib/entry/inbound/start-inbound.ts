import "server-only";
import type { Env } from "@/lib/foundation/env";
import { inboundListenerAddress } from "@/lib/foundation/inbound-listener";
import { errorFields, log } from "@/lib/foundation/log";
import { startInboundServer, type InboundServer } from "./inbound-server";

/**
 * Started at boot or by `npm run inbound` where inboundListenerAddress says; null when it says none. The embedded
 * default port taken by something else is a warning, not a failed boot: the listener was not asked for by name.
 */
export async function startConfiguredInbound(config: Env): Promise<InboundServer | null> {
  const address = inboundListenerAddress(config);
  if (!address) return null;
  try {
    return await startInboundServer({
      port: address.port,
      host: address.host,
      bounceDomain: config.BOUNCE_DOMAIN ?? null,
      maxBytes: config.SMTP_INBOUND_MAX_BYTES ?? config.INBOUND_MAX_BYTES,
      maxRecipients: config.INBOUND_MAX_RECIPIENTS,
      ratePerIpPerMinute: config.INBOUND_RATE_PER_IP_PER_MINUTE,
      maxConnections: config.SMTP_INBOUND_MAX_CONNECTIONS,
      timeoutMs: config.SMTP_INBOUND_TIMEOUT_MS,
      tls: inboundTls(config),
    });
  } catch (error) {
    if (!address.byDefault) throw error;
    log.warn(
      `inbound listener not started: ${address.host}:${address.port} is not free; set SMTP_INBOUND_PORT to choose a port`,
      errorFields(error),
    );
    return null;
  }
}

/** The inbound listener's own certificate when it has one, else the submission listener's (docs/inbound.md#tls). */
export function inboundTls(config: Env): { certPath: string; keyPath: string } | undefined {
  if (config.INBOUND_TLS_CERT && config.INBOUND_TLS_KEY)
    return { certPath: config.INBOUND_TLS_CERT, keyPath: config.INBOUND_TLS_KEY };
  if (config.SMTP_TLS_CERT && config.SMTP_TLS_KEY)
    return { certPath: config.SMTP_TLS_CERT, keyPath: config.SMTP_TLS_KEY };
  return undefined;
}
