import "server-only";
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from "node:crypto";
import { env } from "@/lib/foundation/env";
import { derivedKey } from "./secret-box";

// VERP return path `b-<token>@<BOUNCE_DOMAIN>` (docs/delivery.md#bounces-from-any-smtp-relay) and reply address
// `r-<token>@<inbound domain>` (docs/inbound.md#reply-tracking): base32 of the id's bytes and of an 80-bit HMAC (one key
// per kind), so the listener takes mail only for addresses it signed. Base32 because relays may case-fold a local part.
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const ID = /^em_[0-9A-Za-z]{16}$/;
const ID_CHARS = 26;
const MAC_BYTES = 10;
const MAC_CHARS = 16;

type TokenKind = "bounce-return-path" | "reply-address";
const PREFIXES: Record<TokenKind, string> = { "bounce-return-path": "b-", "reply-address": "r-" };
const TOKENS: Record<TokenKind, RegExp> = {
  "bounce-return-path": new RegExp(`^b-[${ALPHABET}]{${ID_CHARS + MAC_CHARS}}$`),
  "reply-address": new RegExp(`^r-[${ALPHABET}]{${ID_CHARS + MAC_CHARS}}$`),
};

export function bounceLocalPart(messageId: string): string {
  return signedLocalPart("bounce-return-path", messageId);
}

/** `r-<token>`: the local part of the Reply-To a send with `replyTracking: true` gets. */
export function replyLocalPart(messageId: string): string {
  return signedLocalPart("reply-address", messageId);
}

/** The message id a reply-address local part names, or null when we did not sign it; case-insensitive, never throws. */
export function verifyReplyLocalPart(localPart: string): string | null {
  return verifySignedLocalPart("reply-address", localPart);
}

function signedLocalPart(kind: TokenKind, messageId: string): string {
  if (!ID.test(messageId)) throw new Error(`Not a message id: ${messageId}`);
  const id = Buffer.from(messageId.slice(3), "latin1");
  return `${PREFIXES[kind]}${base32(id)}${base32(mac(kind, id))}`;
}

/** `b-<token>@<domain>`, the envelope sender of message `messageId`. */
export function bounceAddress(messageId: string, domain: string): string {
  return `${bounceLocalPart(messageId)}@${domain.toLowerCase()}`;
}

/** The message id a return-path local part names, or null when we did not sign it; case-insensitive, never throws. */
export function verifyBounceLocalPart(localPart: string): string | null {
  return verifySignedLocalPart("bounce-return-path", localPart);
}

function verifySignedLocalPart(kind: TokenKind, localPart: string): string | null {
  const token = localPart.toLowerCase();
  if (!TOKENS[kind].test(token)) return null;
  const prefix = PREFIXES[kind].length;
  const id = fromBase32(token.slice(prefix, prefix + ID_CHARS), 16);
  const given = fromBase32(token.slice(prefix + ID_CHARS), MAC_BYTES);
  if (!id || !given) return null;
  const messageId = `em_${id.toString("latin1")}`;
  if (!ID.test(messageId)) return null;
  return timingSafeEqual(mac(kind, id), given) ? messageId : null;
}

/** The derived keys, kept while AUTH_SECRET stays the same (a listener verifies every RCPT TO with them). */
let cachedKeys: { secret: string; keys: Map<TokenKind, KeyObject> } | undefined;

function mac(kind: TokenKind, id: Buffer): Buffer {
  const secret = env().AUTH_SECRET;
  if (cachedKeys?.secret !== secret) cachedKeys = { secret, keys: new Map() };
  let key = cachedKeys.keys.get(kind);
  if (!key) cachedKeys.keys.set(kind, (key = createSecretKey(derivedKey(kind))));
  return createHmac("sha256", key).update(id).digest().subarray(0, MAC_BYTES);
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
