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
 * Buffered off the response path, one insert per batch: a crash loses at most the last flush of log entries, never
 * a message, and a failure to log never fails the request. Shutdown and tests call flushActivityLog().
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

/** Exported for the test that proves a refused row costs only itself. */
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

/** On a refused batch, row by row: a refused row loses only itself, never other requests' rows. */
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
