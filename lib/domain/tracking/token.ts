import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { derivedKey } from "@/lib/foundation/crypto/secret-box";
import { env } from "@/lib/foundation/env";

/** What an open-pixel token says: this message was displayed. */
export interface OpenClaim {
  kind: "open";
  messageId: string;
}

/** What a click token says: link number `linkIndex` of this message, whose target is `url`. */
export interface ClickClaim {
  kind: "click";
  messageId: string;
  linkIndex: number;
  url: string;
}

/** Links longer than this are left untracked: the token carries the URL, and URLs of several KB break some clients. */
export const MAX_TRACKED_URL_LENGTH = 2000;
const MAX_TOKEN_LENGTH = 4096;
const SEPARATOR = "\n";
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * `payload.HMAC` with its own derived key; the payload names its kind, so an open token is never a click token. A click
 * token carries the link, so the redirect needs no lookup and goes only where we signed.
 */
export function signOpenToken(messageId: string): string {
  return seal(["o", messageId].join(SEPARATOR));
}

export function signClickToken(messageId: string, linkIndex: number, url: string): string {
  return seal(["c", messageId, String(linkIndex), url].join(SEPARATOR));
}

export function openPixelUrl(messageId: string): string {
  return `${env().APP_URL}/t/o/${signOpenToken(messageId)}`;
}

export function clickUrl(messageId: string, linkIndex: number, url: string): string {
  return `${env().APP_URL}/t/c/${signClickToken(messageId, linkIndex, url)}`;
}

/** The claim of an open token signed here, or null for anything else (never throws). */
export function verifyOpenToken(token: string): OpenClaim | null {
  const fields = unseal(token);
  if (!fields || fields.length !== 2 || fields[0] !== "o" || !fields[1]) return null;
  return { kind: "open", messageId: fields[1] };
}

/** The claim of a click token signed here, or null for anything else (never throws). */
export function verifyClickToken(token: string): ClickClaim | null {
  const fields = unseal(token, 4);
  if (!fields || fields.length !== 4 || fields[0] !== "c" || !fields[1] || !/^\d{1,6}$/.test(fields[2])) return null;
  const url = fields[3];
  if (!isHttpUrl(url)) return null;
  return { kind: "click", messageId: fields[1], linkIndex: Number(fields[2]), url };
}

/** http(s) and parseable: the only targets a click may redirect to. */
export function isHttpUrl(url: string): boolean {
  if (!/^https?:\/\//i.test(url)) return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:";
  } catch {
    return false;
  }
}

function seal(text: string): string {
  const payload = Buffer.from(text, "utf8").toString("base64url");
  return `${payload}.${signature(payload).toString("base64url")}`;
}

function unseal(token: string, maxFields = 2): string[] | null {
  if (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split(".");
  if (parts.length !== 2 || !BASE64URL.test(parts[0]) || !BASE64URL.test(parts[1])) return null;
  const [payload, mac] = parts;
  const given = Buffer.from(mac, "base64url");
  const expected = signature(payload);
  // Constant time; the length check only reveals the (public) length of an HMAC-SHA256.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const fields = Buffer.from(payload, "base64url").toString("utf8").split(SEPARATOR);
  return fields.length > maxFields
    ? [...fields.slice(0, maxFields - 1), fields.slice(maxFields - 1).join(SEPARATOR)]
    : fields;
}

function signature(payload: string): Buffer {
  return createHmac("sha256", derivedKey("tracking")).update(payload).digest();
}
