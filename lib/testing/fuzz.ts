import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";

/**
 * Seeded fuzzing of JSON request bodies (app/api/v1/fuzz-post.test.ts): a valid body is mutated
 * with hostile values and hostile encodings, deterministically from a seed, so a failure replays.
 */

export type Rng = () => number;

/** mulberry32: a tiny seeded PRNG (32-bit state), uniform in [0, 1). */
export function mulberry32(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];

/** A stable 32-bit hash of a string (FNV-1a), to give each endpoint its own stream from one seed. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** JSON text placed verbatim where it sits: numbers JSON.stringify cannot write, nesting it would overflow on. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** The JSON text of `value`, RawJson nodes written as they are. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, inner: unknown) =>
    inner instanceof RawJson ? `\u0001raw${raws.push(inner.text) - 1}\u0001` : inner,
  );
  return (text ?? "null").replace(/"\\u0001raw(\d+)\\u0001"/g, (_match, index: string) => raws[Number(index)]);
}

/** The nesting cap of lib/entry/api/input-guard.ts: the body is level 0, nothing may sit deeper than level 64. */
const CAP = 64;
const nested = (count: number, open: string, close: string, leaf: string) =>
  new RawJson(open.repeat(count) + leaf + close.repeat(count));

const UNICODE = [
  "\ud800",
  "a\udfffb",
  "x\ud83d",
  "\u202eevil\u202c",
  "👩‍👩‍👧‍👦",
  "\u200b",
  "\ufeffbom",
  "e\u0301",
  "\uffff",
  "\u{10ffff}",
  "ann\u200b@example.org",
  "Ann \u202e <ann@example.org>",
  "مرحبا",
];
const BREAKS = ["a\r\nBcc: x@evil.org", "\n", "ann@example.org\r\n", "\r", "<a@b>\r\n<c@d>", "line1\nline2"];
const NUMBERS = [
  "1e309",
  "-1e309",
  "-0",
  "1e-400",
  "123456789012345678901234567890",
  "0.1",
  "-1",
  "2147483648",
  "9007199254740993",
];
const STRINGS = [
  "",
  " ",
  "NaN",
  "Infinity",
  "-0",
  "null",
  "true",
  "ann@example.org",
  "tpl_0000000000000000",
  "{{ x",
  "{% raw %}",
  "{{ 'a' | nope }}",
  "<script>x</script>",
  "\u0000",
  "a\u0000b",
];
const KEYS = [
  "__proto__",
  "constructor",
  "toString",
  "extra",
  "",
  "a.b",
  "\u202ekey",
  "k".repeat(300),
  "emailMessages",
  "variables",
  "\u0000",
];

/** A hostile value for a field that sits at `level` (top-level fields are level 1), and what it is. */
export function hostileValue(rng: Rng, level: number, current: unknown): [unknown, string] {
  const kind = pick(rng, ["type", "type", "huge", "unicode", "break", "number", "string", "deep", "shape"] as const);
  switch (kind) {
    case "type":
      return [pick(rng, [0, 1, -1, 3.5, true, false, null, [], {}, [1, "a"], { a: 1 }, [[]], [{}]]), kind];
    case "huge": {
      // 10 MB + 1 is refused while reading (413); rare, since building it costs.
      const size = rng() < 0.03 ? 10 * 1024 * 1024 + 1 : pick(rng, [256, 1001, 65_537, 300_000]);
      return [pick(rng, ["x", "é", "😀", " "]).repeat(size), `${kind}:${size}`];
    }
    case "unicode":
      return [pick(rng, UNICODE), kind];
    case "break":
      return [pick(rng, BREAKS), kind];
    case "number":
      return [new RawJson(pick(rng, NUMBERS)), kind];
    case "string":
      return [pick(rng, STRINGS), kind];
    case "deep": {
      // Exactly at the cap, one past it, or far past it; objects or arrays.
      const count = pick(rng, [CAP + 1 - level, CAP + 2 - level, 200, 5000]);
      return [rng() < 0.5 ? nested(count, '{"a":', "}", '"x"') : nested(count, "[", "]", ""), `${kind}:${count}`];
    }
    case "shape":
      // Arrays where objects are expected and the other way round.
      if (Array.isArray(current))
        return [Object.fromEntries(current.map((item, index) => [String(index), item])), "array→object"];
      if (current && typeof current === "object") return [[current], "object→array"];
      return [[current], "scalar→array"];
  }
}

interface Slot {
  parent: Record<string, unknown> | unknown[];
  key: string | number;
  level: number;
}

/** Every field of a body, at any depth, with its container. */
function slots(value: unknown, level = 1): Slot[] {
  if (!value || typeof value !== "object" || value instanceof RawJson) return [];
  const container = value as Record<string, unknown>;
  const keys: Array<string | number> = Array.isArray(value) ? value.map((_item, index) => index) : Object.keys(value);
  return keys.flatMap((key) => [{ parent: container, key, level }, ...slots(container[key as string], level + 1)]);
}

const define = (target: object, key: string | number, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true }); // "__proto__" stays an own key

/** One structural change to `body` (mutated in place), described. */
function mutateTree(rng: Rng, body: Record<string, unknown>): string {
  const fields = slots(body);
  const op = pick(rng, ["set", "set", "set", "delete", "add"] as const);
  if (op === "add" || fields.length === 0) {
    const objects = [
      { parent: body, level: 1 },
      ...fields
        .filter((slot) => isObject(slot.parent[slot.key as never]))
        .map((slot) => ({ parent: slot.parent[slot.key as never] as object, level: slot.level + 1 })),
    ];
    const target = pick(rng, objects);
    const key = pick(rng, KEYS);
    const [value, kind] = hostileValue(rng, target.level, undefined);
    define(target.parent, key, value);
    return `add ${JSON.stringify(key.slice(0, 20))}=${kind}`;
  }
  const slot = pick(rng, fields);
  if (op === "delete") {
    if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1);
    else delete slot.parent[slot.key];
    return `delete ${slot.key}`;
  }
  const [value, kind] = hostileValue(rng, slot.level, (slot.parent as Record<string, unknown>)[slot.key]);
  define(slot.parent, slot.key, value);
  return `set ${slot.key}=${kind}`;
}

const isObject = (value: unknown) =>
  !!value && typeof value === "object" && !Array.isArray(value) && !(value instanceof RawJson);

export interface FuzzCase {
  labels: string[];
  body: string | Uint8Array<ArrayBuffer>;
  contentType: string | null;
}

const CONTENT_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json; charset=utf-16",
  "application/vnd.api+json",
  "application/jsonx",
  "",
  "APPLICATION/JSON",
];
const BAD_BYTES = [
  [0xff],
  [0xc0, 0xae],
  [0xed, 0xa0, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
  [0xef, 0xbb, 0xbf],
];
const TOP_LEVEL = ["[]", "null", "1", '"str"', "true", "", " ", "{}", "[{}]", "NaN", "{", "}"];

/** Changes to the text or bytes of the request rather than to its JSON value. */
function mutateText(rng: Rng, text: string, fuzz: FuzzCase): void {
  const op = pick(rng, ["duplicate", "truncate", "content-type", "bytes", "top-level"] as const);
  fuzz.labels.push(op);
  if (op === "duplicate") {
    // Duplicate keys: JSON.parse keeps the last, so the hostile value wins at the end, loses at the start.
    const key = pick(rng, [...Object.keys(JSON.parse(text.startsWith("{") ? text : "{}")), "to"]);
    const value = toJsonText(hostileValue(rng, 1, undefined)[0]);
    fuzz.body =
      rng() < 0.5
        ? text.replace(/^\{/, `{${JSON.stringify(key)}:${value},`)
        : text.replace(/\}$/, `,${JSON.stringify(key)}:${value}}`);
  } else if (op === "truncate") {
    fuzz.body = text.slice(0, Math.floor(rng() * text.length));
  } else if (op === "content-type") {
    fuzz.contentType = pick(rng, CONTENT_TYPES);
  } else if (op === "bytes") {
    const bytes = Buffer.from(text, "utf8");
    const at = Math.floor(rng() * (bytes.length + 1));
    fuzz.body = new Uint8Array(
      Buffer.concat([bytes.subarray(0, at), Buffer.from(pick(rng, BAD_BYTES)), bytes.subarray(at)]),
    );
  } else {
    fuzz.body = pick(rng, TOP_LEVEL).replace("{}", rng() < 0.5 ? "{}" : text);
  }
}

/** A case from one of the endpoint's valid bodies: 10% left valid, else 1–3 changes to the value, then maybe one to the text. */
export function fuzzCase(rng: Rng, seeds: readonly unknown[]): FuzzCase {
  const body = structuredClone(pick(rng, seeds)) as Record<string, unknown>;
  const fuzz: FuzzCase = { labels: [], body: "", contentType: "application/json" };
  if (rng() >= 0.1) {
    const changes = 1 + Math.floor(rng() * 3);
    for (let i = 0; i < changes; i++) fuzz.labels.push(mutateTree(rng, body));
  }
  fuzz.body = toJsonText(body);
  if (rng() < 0.3) mutateText(rng, fuzz.body, fuzz);
  return fuzz;
}

/** What a case looks like in a failure message: its changes and the start of its body. */
export function describeCase(fuzz: FuzzCase): string {
  const text = typeof fuzz.body === "string" ? fuzz.body : Buffer.from(fuzz.body).toString("latin1");
  return `[${fuzz.labels.join("; ")}] content-type=${JSON.stringify(fuzz.contentType)} body=${JSON.stringify(text.slice(0, 400))}${text.length > 400 ? `… (${text.length} chars)` : ""}`;
}

/** Rows a POST may write, counted for one workspace in one statement. */
export async function countRows(workspaceId: string): Promise<Record<string, number>> {
  const tables = [
    "email_messages",
    "batches",
    "workflow_runs",
    "templates",
    "template_versions",
    "template_scenarios",
    "workflows",
    "attachments",
    "webhook_endpoints",
    "webhook_deliveries",
    "webhook_events",
    "domains",
    "suppressions",
    "audit_events",
    "api_keys",
    "unsubscribe_groups",
    "group_unsubscribes",
  ];
  const counts = tables.map(
    (table) =>
      sql`(select count(*) from ${sql.identifier(table)} where workspace_id = ${workspaceId})::int as ${sql.identifier(table)}`,
  );
  const result = await (await getDb()).execute(sql`select ${sql.join(counts, sql`, `)}`);
  const rows = (Array.isArray(result) ? result : (result as unknown as { rows: unknown[] }).rows) as Array<
    Record<string, number>
  >;
  return rows[0];
}

/** Times `sample` every `everyMs` (never two at once) until stopped: the slowest answer and any that failed. */
export function startLatencySampler(sample: () => Promise<string | null>, everyMs = 200) {
  const stats = { count: 0, maxMs: 0, totalMs: 0, failures: [] as string[] };
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    const started = performance.now();
    running = sample()
      .then((failure) => void (failure && stats.failures.push(failure)))
      .catch((error: unknown) => void stats.failures.push(String(error)))
      .finally(() => {
        const ms = performance.now() - started;
        stats.maxMs = Math.max(stats.maxMs, ms);
        stats.totalMs += ms;
        stats.count++;
        running = null;
      });
  }, everyMs);
  return {
    stats,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
