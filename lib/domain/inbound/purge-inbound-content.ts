import "server-only";
import { and, eq, isNull, lt } from "drizzle-orm";
import { getDb, type Db } from "@/db/client";
import { walkOldestFirst } from "@/db/oldest-first";
import { inboundMessages } from "@/db/schema";
import { now as clockNow } from "@/lib/foundation/clock";
import { log } from "@/lib/foundation/log";
import { cutoffOf, listRetentionWindows } from "@/lib/records/retention/windows";
import { eraseInboundContent, removeAttachmentBytes } from "./erase-inbound-content";

const PURGE_CHUNK = 500;

/**
 * Retention, on the same body window as sent messages (docs/retention.md): the content of a workspace's inbound mail
 * older than that goes, the subject and envelope stay; a workspace on legal hold keeps everything. "Now" is the
 * service clock's, so tests move it rather than back-date rows.
 */
export async function purgeInboundContent(options: { now?: Date } = {}): Promise<{ purged: number }> {
  const db = await getDb();
  const now = options.now ?? clockNow();
  let purged = 0;
  for (const windows of await listRetentionWindows(db)) {
    if (windows.legalHold) continue;
    const count = await purgeWorkspaceInbound(db, windows.workspaceId, cutoffOf(windows.bodyDays, now));
    if (count > 0) log.info("inbound content purged", { workspaceId: windows.workspaceId, purged: count });
    purged += count;
  }
  return { purged };
}

/** Walks the workspace's unpurged rows (the partial retention index) oldest first, one short transaction per chunk. */
async function purgeWorkspaceInbound(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const m = inboundMessages;
  const where = and(eq(m.workspaceId, workspaceId), isNull(m.contentPurgedAt), lt(m.createdAt, cutoff))!;
  return walkOldestFirst({ db, table: m, createdAt: m.createdAt, id: m.id, where, chunk: PURGE_CHUNK }, async (ids) => {
    const erased = await db.transaction((tx) => eraseInboundContent(tx, ids, { subject: false }));
    await removeAttachmentBytes(erased.storageKeys);
    return erased.ids.length;
  });
}
