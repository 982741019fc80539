import { randomBytes } from "node:crypto";

/**
 * Ids are a prefix and 16 base62 characters (docs/api.md#decided-envelope-ids-time): 8 characters of the creation time in
 * milliseconds, then 8 random ones. The alphabet is in ASCII order, so ids sort by creation time,
 * which keeps keyset pagination on (created_at, id) stable and makes index inserts append-only.
 */
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export const ID_PREFIXES = {
  message: "em_",
  event: "log_",
  batch: "batch_",
  workflow: "wf_",
  workflowRun: "wfr_",
  template: "tpl_",
  templateVersion: "tplv_",
  templateScenario: "tpls_",
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
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

let lastTime = -1;
let lastRandom = "";

/**
 * Monotonic within a process: ids made in the same millisecond increment the random part, so two
 * events recorded back to back (CREATED, then RENDERED) keep their order on (created_at, id).
 */
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
  // Called for nearly every id of a batch (thousands share a millisecond): no arrays per call.
  let i = value.length - 1;
  while (i >= 0 && value[i] === "z") i--;
  if (i < 0) return null;
  return value.slice(0, i) + ALPHABET[ALPHABET.indexOf(value[i]) + 1] + "0".repeat(value.length - 1 - i);
}

export function isId(kind: IdKind, value: unknown): value is string {
  return typeof value === "string" && new RegExp(`^${ID_PREFIXES[kind]}[0-9A-Za-z]{16}$`).test(value);
}

export function randomBase62(length: number): string {
  // Rejection sampling keeps every character equally likely.
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/**
 * Bytes from the CSPRNG, drawn 4 KB at a time as crypto.randomUUID draws its own: one call into
 * OpenSSL per ~250 ids rather than one per id (a send makes half a dozen ids; the calls were 2–3 % of
 * an embedded server's CPU). Each byte is handed out once.
 */
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

function encodeTime(ms: number): string {
  let out = "";
  let rest = ms;
  for (let i = 0; i < 8; i++) {
    out = ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}
