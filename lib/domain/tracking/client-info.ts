import type { Client } from "./bot-rules";

const MAX_IP_LENGTH = 64;
const MAX_USER_AGENT_LENGTH = 512;

/**
 * The first X-Forwarded-For entry, else X-Real-IP: the proxy must set one and the app must not be reachable around it.
 * Values are capped and stripped of control characters for the timeline sentence.
 */
export function clientFromHeaders(headers: Headers): Client {
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0];
  const ip = clean(forwarded ?? "", MAX_IP_LENGTH) || clean(headers.get("x-real-ip") ?? "", MAX_IP_LENGTH) || "unknown";
  return { ip, userAgent: clean(headers.get("user-agent") ?? "", MAX_USER_AGENT_LENGTH) };
}

function clean(value: string, maxLength: number): string {
  return value
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .slice(0, maxLength);
}
