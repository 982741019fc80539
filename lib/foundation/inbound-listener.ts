import type { Env } from "./env";

/** Where the embedded server's inbound listener answers unless SMTP_INBOUND_PORT says otherwise (docs/inbound.md#dns-and-ports). */
export const EMBEDDED_INBOUND_PORT = 2525;

/**
 * Where this installation's inbound listener runs: SMTP_INBOUND_PORT when set; in embedded mode (no DATABASE_URL)
 * 127.0.0.1:2525 by default, so a laptop receives replies without setup and is no MX for the world; else none.
 * The server starts it there; `simulate a reply` and `inbound send` hand mail to it.
 */
export function inboundListenerAddress(config: Env): { host: string; port: number; byDefault: boolean } | null {
  if (config.SMTP_INBOUND_PORT !== undefined) {
    return { host: config.SMTP_INBOUND_HOST, port: config.SMTP_INBOUND_PORT, byDefault: false };
  }
  if (!config.DATABASE_URL) return { host: "127.0.0.1", port: EMBEDDED_INBOUND_PORT, byDefault: true };
  return null;
}
