import type { Client } from "./bot-rules";

const MAX_IP_LENGTH = 64;
const MAX_USER_AGENT_LENGTH = 512;

/**
 * Who fetched a tracking URL. The client IP is the first X-Forwarded-For entry, else X-Real-IP, else
 * "unknown": behind a reverse proxy (which a public deployment needs for TLS anyway) the proxy must set
 * one of them, and the app must not be reachable around it, or a client could claim any address.
 * Values are capped and stripped of control characters: they go into a sentence on the timeline.
 */
export function clientFromHeaders(headers: Headers): Client {
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0];
  const ip = clean(forwarded ?? "", MAX_IP_LENGTH) || clean(headers.get("x-real-ip") ?? "", MAX_IP_LENGTH) || "unknown";
  return { ip, userAgent: clean(headers.get("user-agent") ?? "", MAX_USER_AGENT_LENGTH) };
}

function clean(value: string, maxLength: number): string {
  return value.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, maxLength);
}
