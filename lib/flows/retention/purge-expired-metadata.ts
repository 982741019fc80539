import "server-only";
import { getDb } from "@/db/client";
import { now as clockNow } from "@/lib/foundation/clock";
import { log } from "@/lib/foundation/log";
import { cutoffOf, listRetentionWindows } from "@/lib/records/retention/windows";
import { purgeWorkspaceMetadata, type MetadataPurged } from "./purge-workspace-metadata";

/**
 * Retention of metadata and timelines (docs/retention.md): each workspace's messages, inbound mail, threads and
 * webhook rows older than its metadata window are deleted; a workspace on legal hold keeps everything. The one place
 * rows are deleted by age, so partitioning can later drop whole partitions past every window and leave only the
 * partitions that straddle a cutoff to this. "Now" is the service clock's.
 */
export async function purgeExpiredMetadata(options: { now?: Date } = {}): Promise<{ deleted: number }> {
  const db = await getDb();
  const now = options.now ?? clockNow();
  let deleted = 0;
  for (const windows of await listRetentionWindows(db)) {
    if (windows.legalHold) continue;
    const purged = await purgeWorkspaceMetadata(db, windows.workspaceId, cutoffOf(windows.metadataDays, now));
    const count = total(purged);
    if (count > 0) log.info("metadata purged", { workspaceId: windows.workspaceId, ...purged });
    deleted += count;
  }
  return { deleted };
}

function total(purged: MetadataPurged): number {
  return Object.values(purged).reduce((sum, count) => sum + count, 0);
}
