import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { derivedKey } from "@/lib/foundation/crypto/secret-box";
import { env } from "@/lib/foundation/env";

/** Whom an unsubscribe link is for: one recipient address of one message (the message names the group). */
export interface UnsubscribeClaim {
  messageId: string;
  address: string;
}

const SEPARATOR = "\n";

/** `payload.HMAC` with its own derived key: nothing is stored, so a link works while AUTH_SECRET stays the same. */
export function signUnsubscribeToken(messageId: string, address: string): string {
  const payload = Buffer.from(`${messageId}${SEPARATOR}${address.trim().toLowerCase()}`, "utf8").toString("base64url");
  return `${payload}.${signature(payload).toString("base64url")}`;
}

/** The claim of a token signed here, or null for anything else (malformed, tampered, another secret's). */
export function verifyUnsubscribeToken(token: string): UnsubscribeClaim | null {
  if (typeof token !== "string" || token.length > 2048) return null;
  const parts = token.split(".");
  if (parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0]) || !/^[A-Za-z0-9_-]+$/.test(parts[1])) return null;
  const [payload, mac] = parts;
  const given = Buffer.from(mac, "base64url");
  const expected = signature(payload);
  // Constant time; the length check only reveals the (public) length of an HMAC-SHA256.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const text = Buffer.from(payload, "base64url").toString("utf8");
  const cut = text.indexOf(SEPARATOR);
  if (cut <= 0 || cut === text.length - 1) return null;
  return { messageId: text.slice(0, cut), address: text.slice(cut + 1) };
}

/** The page a recipient opens (GET shows a confirm button; it never changes anything). */
export function unsubscribeUrl(messageId: string, address: string): string {
  return `${env().APP_URL}/u/${signUnsubscribeToken(messageId, address)}`;
}

/** The RFC 8058 one-click endpoint named by the List-Unsubscribe header (POST only). */
export function oneClickUnsubscribeUrl(messageId: string, address: string): string {
  return `${env().APP_URL}/api/unsubscribe/${signUnsubscribeToken(messageId, address)}`;
}

function signature(payload: string): Buffer {
  return createHmac("sha256", derivedKey("unsubscribe")).update(payload).digest();
}
