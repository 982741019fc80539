import "server-only";
import { and, eq, isNull, lt, notInArray } from "drizzle-orm";
import { getDb, type Db } from "@/db/client";
import { walkOldestFirst } from "@/db/oldest-first";
import { emailMessages } from "@/db/schema";
import { now as clockNow } from "@/lib/foundation/clock";
import { log } from "@/lib/foundation/log";
import { MESSAGE_FAMILY } from "@/lib/records/partitions/family";
import { keyMadeBefore } from "@/lib/records/partitions/prune";
import { cutoffOf, listRetentionWindows } from "@/lib/records/retention/windows";
import { eraseStoredContent } from "./erase-content";

const PURGE_CHUNK = 1000;

/**
 * Retention (docs/retention.md): each workspace's message content older than its body window goes, messages still
 * waiting are kept, a workspace on legal hold keeps everything. "Now" is the service clock's, so tests move it.
 */
export async function purgeMessageContent(options: { now?: Date } = {}): Promise<{ purged: number }> {
  const db = await getDb();
  const now = options.now ?? clockNow();
  let purged = 0;
  for (const windows of await listRetentionWindows(db)) {
    if (windows.legalHold) continue;
    const count = await purgeWorkspaceContent(db, windows.workspaceId, cutoffOf(windows.bodyDays, now));
    if (count > 0) log.info("message content purged", { workspaceId: windows.workspaceId, purged: count });
    purged += count;
  }
  return { purged };
}

/** Walks the workspace's unpurged rows (the partial retention index) oldest first, one short transaction per chunk. */
async function purgeWorkspaceContent(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const m = emailMessages;
  const where = and(
    eq(m.workspaceId, workspaceId),
    isNull(m.contentPurgedAt),
    lt(m.createdAt, cutoff),
    keyMadeBefore(MESSAGE_FAMILY, m.id, cutoff), // leaves the later days' partitions out
    notInArray(m.status, ["PENDING", "PAUSED"]),
  )!;
  return walkOldestFirst({ db, table: m, createdAt: m.createdAt, id: m.id, where, chunk: PURGE_CHUNK }, async (ids) =>
    db.transaction(async (tx) => (await eraseStoredContent(tx, ids, { subject: false, skipWaiting: true })).length),
  );
}
