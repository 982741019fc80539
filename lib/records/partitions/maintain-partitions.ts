import "server-only";
import { getDb, type Db } from "@/db/client";
import { now as clockNow } from "@/lib/foundation/clock";
import { log } from "@/lib/foundation/log";
import { listRetentionWindows, retentionLimits } from "@/lib/records/retention/windows";
import { isLockTimeout } from "./ddl";
import { dropExpiredPartitions } from "./drop-expired-partitions";
import { ensurePartitions } from "./ensure-partitions";
import { FAMILIES, type ReleaseOutside } from "./family";
import { sealLegacyPartitions } from "./seal-legacy-partitions";

export interface PartitionsMaintained {
  sealed: boolean;
  created: string[];
  dropped: string[];
}

/**
 * Hourly (lib/entry/worker/maintenance.ts): seals the legacy tables once, creates days ahead, drops days past every
 * window. A lock not granted within the timeout ends the run quietly; the next hour tries again.
 */
export async function maintainPartitions(
  options: { now?: Date; releaseOutside?: ReleaseOutside } = {},
): Promise<PartitionsMaintained> {
  const db = await getDb();
  const now = options.now ?? clockNow();
  const result: PartitionsMaintained = { sealed: false, created: [], dropped: [] };
  try {
    for (const family of FAMILIES) {
      result.sealed = (await sealLegacyPartitions(db, family, now)) || result.sealed;
      result.created.push(...(await ensurePartitions(db, family, now)));
      const keepDays = family.keepDays(await longestMetadataWindow(db));
      result.dropped.push(
        ...(await dropExpiredPartitions(db, family, { now, keepDays, releaseOutside: options.releaseOutside })),
      );
    }
  } catch (error) {
    if (!isLockTimeout(error)) throw error;
    log.warn("partition maintenance waited too long for a lock; next run", { ...result });
  }
  return result;
}

/**
 * The longest metadata window of any workspace (docs/retention.md#windows: its own or the instance's default, within
 * the ceiling, never shorter than its body window): a day past it is past every window, bodies included.
 */
export async function longestMetadataWindow(db: Db): Promise<number> {
  const windows = await listRetentionWindows(db);
  return windows.reduce(
    (longest, window) => Math.max(longest, window.metadataDays),
    // No workspace yet: the default is what the first will have.
    windows.length === 0 ? retentionLimits().defaultMetadataDays : 0,
  );
}
