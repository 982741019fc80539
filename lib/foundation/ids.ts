import { randomBytes } from "node:crypto";

// A prefix, 8 base62 characters of the creation time in ms, 8 random ones (docs/api.md#decided-envelope-ids-time). The
// alphabet is in ASCII order, so ids sort by creation time: keyset pages stay stable and index inserts append.
export const ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export const ID_PREFIXES = {
  message: "em_",
  event: "log_",
  batch: "batch_",
  workflow: "wf_",
  workflowRun: "wfr_",
  template: "tpl_",
  templateVersion: "tplv_",
  templateScenario: "tpls_",
  templateLocale: "tplloc_",
  attachment: "attachment_",
  group: "group_",
  contact: "contact_",
  domain: "dom_",
  apiKey: "key_",
  workspace: "ws_",
  user: "user_",
  activity: "act_",
  suppression: "sup_",
  unsubscribe: "unsub_",
  invitation: "inv_",
  webhookEndpoint: "whep_",
  webhookEvent: "evt_",
  webhookDelivery: "whdl_",
  webhookAttempt: "what_",
  audit: "audit_",
  inboundDomain: "idom_",
  inboundRoute: "irt_",
  inboundMessage: "inm_",
  inboundThread: "thr_",
  inboundAttachment: "inatt_",
  domainCheck: "dchk_",
  dmarcReport: "dmr_",
  providerConnection: "pcon_",
  routingRule: "rrule_",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

let lastTime = -1;
let lastRandom = "";

/** Monotonic within a process: ids of one millisecond increment the random part, so back-to-back events keep their order. */
export function newId(kind: IdKind, at: Date = new Date()): string {
  const time = at.getTime();
  if (time === lastTime) {
    lastRandom = increment(lastRandom) ?? randomBase62(8);
  } else {
    lastTime = time;
    lastRandom = randomBase62(8);
  }
  return ID_PREFIXES[kind] + encodeTime(time) + lastRandom;
}

/** The next base62 string of the same length (carrying over `z`s), or null after `zzz…`. */
function increment(value: string): string | null {
  let i = value.length - 1;
  while (i >= 0 && value[i] === "z") i--;
  if (i < 0) return null;
  return value.slice(0, i) + ID_ALPHABET[ID_ALPHABET.indexOf(value[i]) + 1] + "0".repeat(value.length - 1 - i);
}

export function isId(kind: IdKind, value: unknown): value is string {
  return typeof value === "string" && new RegExp(`^${ID_PREFIXES[kind]}[0-9A-Za-z]{16}$`).test(value);
}

/** When an id was made (its 8 time characters), or null for a value that is no id of ours: retention's 410 reads it. */
export function idTime(value: string): Date | null {
  const match = /^[a-z]+_([0-9A-Za-z]{8})[0-9A-Za-z]{8}$/.exec(value);
  return match ? new Date(decodeTime(match[1])) : null;
}

/** The time in ms that 8 base62 characters name (encodeTime's inverse). */
export function decodeTime(characters: string): number {
  let ms = 0;
  for (const char of characters) ms = ms * 62 + ID_ALPHABET.indexOf(char);
  return ms;
}

export function randomBase62(length: number): string {
  // Rejection sampling keeps every character equally likely.
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ID_ALPHABET[byte % 62];
  }
  return out;
}

// CSPRNG bytes drawn 4 KB at a time, each handed out once, as crypto.randomUUID does: one OpenSSL call per ~250 ids
// (docs/benchmarks.md#reads-in-one-round-trip-issue-20-2026-11-27-session-13).
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function randomByte(): number {
  if (poolOffset >= pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  return pool[poolOffset++];
}

/** The 8 base62 characters of a time in ms that follow an id's prefix. */
export function encodeTime(ms: number): string {
  let out = "";
  let rest = ms;
  for (let i = 0; i < 8; i++) {
    out = ID_ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}
