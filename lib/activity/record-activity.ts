import "server-only";
import { getDb } from "@/db/client";
import { activityLogs } from "@/db/schema";
import { newId } from "@/lib/ids";
import { errorFields, log } from "@/lib/log";

export interface ActivityEntry {
  workspaceId: string;
  apiKeyId: string | null;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  sandbox: boolean;
  errorCode: string | null;
  resourceId: string | null;
  requestBody: unknown;
  responseBody: unknown;
}

const MAX_STRING = 2_000;

const FLUSH_AFTER_MS = 100;
const FLUSH_AT_ENTRIES = 200;

let pending: Array<typeof activityLogs.$inferInsert> = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let flushing: Promise<void> = Promise.resolve();

/**
 * The workspace's API request log (sandbox input and output live here). Attachment contents
 * (`contentBlob`) become "[base64, N bytes]"; other long strings (big HTML) are shortened.
 *
 * Entries are buffered and written in one multi-row insert every 100 ms (or every 200 entries), off
 * the response path: logging costs a request no round trip, and the database one insert per batch.
 * A crash loses at most the last 100 ms of log entries, never a message. A failure to log never fails
 * the request. Shutdown and tests call flushActivityLog().
 */
export function recordActivity(entry: ActivityEntry): void {
  pending.push({
    id: newId("activity"),
    ...entry,
    requestBody: shorten(entry.requestBody) ?? null,
    responseBody: shorten(entry.responseBody) ?? null,
  });
  if (pending.length >= FLUSH_AT_ENTRIES) void flushActivityLog();
  else timer ??= setTimeout(() => void flushActivityLog(), FLUSH_AFTER_MS);
}

/** Writes every buffered entry; resolves once they (and any write already under way) are stored. */
export function flushActivityLog(): Promise<void> {
  if (timer) clearTimeout(timer);
  timer = undefined;
  const entries = pending;
  pending = [];
  flushing = flushing.then(() => (entries.length ? write(entries) : undefined));
  return flushing;
}

async function write(entries: Array<typeof activityLogs.$inferInsert>): Promise<void> {
  try {
    await (await getDb()).insert(activityLogs).values(entries);
  } catch (error) {
    log.warn("activity log write failed", { entries: entries.length, ...errorFields(error) });
  }
}

function shorten(value: unknown, depth = 0, key = ""): unknown {
  // Attachment contents (at any depth: a batch nests them) are logged as their decoded size only.
  if (key === "contentBlob" && typeof value === "string") return `[base64, ${Buffer.byteLength(value.replace(/\s+/g, ""), "base64")} bytes]`;
  if (typeof value === "string") {
    return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… [${value.length - MAX_STRING} more characters]` : value;
  }
  if (depth > 8 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.slice(0, 1000).map((item) => shorten(item, depth + 1));
  return Object.fromEntries(Object.entries(value).slice(0, 200).map(([key, inner]) => [key, shorten(inner, depth + 1, key)]));
}
