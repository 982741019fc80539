import "server-only";
import { getDb } from "@/db/client";
import { insertJsonRows } from "@/db/insert-json-rows";
import { activityLogs } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { errorFields, log } from "@/lib/foundation/log";
import { storableBody, storableLine } from "./storable";

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

type ActivityRow = typeof activityLogs.$inferInsert;

const FLUSH_AFTER_MS = 100;
const FLUSH_AT_ENTRIES = 200;

let pending: ActivityRow[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let flushing: Promise<void> = Promise.resolve();

/**
 * The workspace's API request log (sandbox input and output live here). What the client sent is made
 * storable first (storable.ts: no NUL or lone surrogate, bounded depth and size; attachment contents
 * become "[base64, N bytes]").
 *
 * Entries are buffered and written in one multi-row insert every 100 ms (or every 200 entries), off
 * the response path: logging costs a request no round trip, and the database one insert per batch.
 * A crash loses at most the last 100 ms of log entries, never a message. A failure to log never fails
 * the request, and one entry the database refuses costs only itself (see write). Shutdown and tests
 * call flushActivityLog().
 */
export function recordActivity(entry: ActivityEntry): void {
  bufferActivityRow({
    id: newId("activity"),
    ...entry,
    method: storableLine(entry.method),
    path: storableLine(entry.path),
    errorCode: entry.errorCode === null ? null : storableLine(entry.errorCode),
    resourceId: entry.resourceId === null ? null : storableLine(entry.resourceId),
    requestBody: storableBody(entry.requestBody) ?? null,
    responseBody: storableBody(entry.responseBody) ?? null,
  });
}

/** Buffers a row as it is. Exported for the test that proves a refused row costs only itself. */
export function bufferActivityRow(row: ActivityRow): void {
  pending.push(row);
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

/**
 * One insert for the batch; if the database refuses it, row by row, so a row it refuses (one the
 * sanitiser missed, or of a workspace deleted meanwhile) loses only itself, never its neighbours of
 * other requests and workspaces. When the database is down, every row fails fast and each is logged.
 */
async function write(rows: ActivityRow[]): Promise<void> {
  try {
    const db = await getDb();
    try {
      await insertJsonRows(db, activityLogs, rows);
      return;
    } catch (error) {
      if (rows.length > 1)
        log.warn("activity log batch write failed; writing its entries one by one", {
          entries: rows.length,
          ...errorFields(error),
        });
    }
    for (const row of rows) {
      await insertJsonRows(db, activityLogs, [row]).catch((error: unknown) =>
        log.warn("activity log entry dropped", { ...describeRow(row), ...errorFields(error) }),
      );
    }
  } catch (error) {
    log.warn("activity log write failed", { entries: rows.length, ...errorFields(error) });
  }
}

/** Enough to find the request the lost entry was for; the path shortened and made printable. */
function describeRow(row: ActivityRow) {
  return {
    activityId: row.id,
    workspaceId: row.workspaceId,
    apiKeyId: row.apiKeyId,
    method: row.method,
    path: storableLine(row.path).slice(0, 200),
    resourceId: row.resourceId,
  };
}
