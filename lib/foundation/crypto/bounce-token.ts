import "server-only";
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from "node:crypto";
import { env } from "@/lib/foundation/env";
import { derivedKey } from "./secret-box";

// VERP return path `b-<token>@<BOUNCE_DOMAIN>` (docs/delivery.md#bounces-from-any-smtp-relay): base32 of the id's bytes and
// of an 80-bit HMAC, so the listener takes mail only for paths it signed. Base32 because relays may case-fold a local part.
const PREFIX = "b-";
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const ID = /^em_[0-9A-Za-z]{16}$/;
const ID_CHARS = 26;
const MAC_BYTES = 10;
const MAC_CHARS = 16;
const TOKEN = new RegExp(`^${PREFIX}[${ALPHABET}]{${ID_CHARS + MAC_CHARS}}$`);

export function bounceLocalPart(messageId: string): string {
  if (!ID.test(messageId)) throw new Error(`Not a message id: ${messageId}`);
  const id = Buffer.from(messageId.slice(3), "latin1");
  return `${PREFIX}${base32(id)}${base32(mac(id))}`;
}

/** `b-<token>@<domain>`, the envelope sender of message `messageId`. */
export function bounceAddress(messageId: string, domain: string): string {
  return `${bounceLocalPart(messageId)}@${domain.toLowerCase()}`;
}

/** The message id a return-path local part names, or null when we did not sign it; case-insensitive, never throws. */
export function verifyBounceLocalPart(localPart: string): string | null {
  const token = localPart.toLowerCase();
  if (!TOKEN.test(token)) return null;
  const id = fromBase32(token.slice(PREFIX.length, PREFIX.length + ID_CHARS), 16);
  const given = fromBase32(token.slice(PREFIX.length + ID_CHARS), MAC_BYTES);
  if (!id || !given) return null;
  const messageId = `em_${id.toString("latin1")}`;
  if (!ID.test(messageId)) return null;
  return timingSafeEqual(mac(id), given) ? messageId : null;
}

/** The derived key, kept while AUTH_SECRET stays the same (a listener verifies every RCPT TO with it). */
let cachedKey: { secret: string; key: KeyObject } | undefined;

function mac(id: Buffer): Buffer {
  const secret = env().AUTH_SECRET;
  if (cachedKey?.secret !== secret) cachedKey = { secret, key: createSecretKey(derivedKey("bounce-return-path")) };
  return createHmac("sha256", cachedKey.key).update(id).digest().subarray(0, MAC_BYTES);
}

function base32(bytes: Buffer): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** Exactly `length` bytes, or null (a token whose padding bits are not zero is not one we made). */
function fromBase32(text: string, length: number): Buffer | null {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text) {
    value = ((value << 5) | ALPHABET.indexOf(char)) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  if (bytes.length !== length || (value & ((1 << bits) - 1)) !== 0) return null;
  return Buffer.from(bytes);
}
