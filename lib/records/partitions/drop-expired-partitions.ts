import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { log } from "@/lib/foundation/log";
import { addDays } from "./bounds";
import { inLockBoundTransaction, runDdl } from "./ddl";
import { rootOf, type PartitionFamily } from "./family";
import { listPartitions, type Partition } from "./list-partitions";

/**
 * Drops each range whose end is `keepDays` (the longest retention window of any workspace) behind `now`, unless a
 * workspace on legal hold has rows in it or a message in it still waits for delivery: every table's partition of
 * that range in one short transaction, the root's last (the others' keys point at it). Dropping is no DELETE: no row is read, no dead tuple left. The default
 * partition is never dropped. Rows of shorter windows in kept ranges are the metadata purge's.
 */
export async function dropExpiredPartitions(
  db: Db,
  family: PartitionFamily,
  options: { now: Date; keepDays: number },
): Promise<string[]> {
  const before = addDays(options.now, -options.keepDays);
  const dropped: string[] = [];
  for (const partition of await listPartitions(db, family)) {
    if (partition.isDefault || partition.endsAt! > before) continue;
    const reason = await reasonToKeep(db, partition);
    if (reason) {
      log.info(`partition kept past every window: ${reason}`, { partition: partition.name });
      continue;
    }
    const suffix = partition.name.slice(rootOf(family).name.length + 1);
    const leaves = family.tables.map((table) => `"${table.name}_${suffix}"`).reverse();
    await inLockBoundTransaction(db, family, (tx) =>
      runDdl(
        tx,
        leaves.map((leaf) => `DROP TABLE IF EXISTS ${leaf}`),
      ),
    );
    dropped.push(partition.name);
  }
  return dropped;
}

/**
 * Why a range past every window must stay, or null: a workspace on legal hold has rows in it, or a message in it still
 * waits for delivery (scheduled, retrying, or held while its workspace is paused), which the metadata purge keeps too.
 * One probe per workspace of the range's (workspace_id, …) indexes: no scan of the range.
 */
async function reasonToKeep(db: Db, partition: Partition): Promise<string | null> {
  const [row] = rowsOf(
    await db.execute(
      sql.raw(`select
        exists (select 1 from workspaces w where w.legal_hold
          and exists (select 1 from "${partition.name}" m where m.workspace_id = w.id)) as held,
        exists (select 1 from workspaces w
          where exists (select 1 from "${partition.name}" m where m.workspace_id = w.id and m.status in ('PENDING', 'PAUSED'))) as waiting`),
    ),
  );
  if (row?.held) return "a workspace on legal hold has rows in it";
  if (row?.waiting) return "a message in it still waits for delivery";
  return null;
}
