import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { log } from "@/lib/foundation/log";
import { addDays } from "./bounds";
import { inLockBoundTransaction, runDdl, runDdlBounded } from "./ddl";
import { rootOf, type PartitionFamily, type ReleaseOutside } from "./family";
import { listPartitions, type Partition } from "./list-partitions";

/**
 * Drops each range whose end is `keepDays` (the longest retention window of any workspace) behind `now`, unless a
 * workspace on legal hold has rows in it or a message in it still waits for delivery. Dropping is no DELETE: no row
 * is read, no dead tuple left. The default partition is never dropped. Rows of shorter windows in kept ranges are
 * the metadata purge's.
 *
 * In three steps, so that sends never wait for the disk: a day's tables are detached from their parents in one
 * short transaction (the parents' locks, catalog changes only); then emptied, then dropped, each alone, locking
 * nothing a send uses. A `DROP` of a partition would hold the parents' locks while its commit unlinks the day's
 * files and evicts their buffers (117 ms for a day of 1,000,000 messages' 471 MB), and every send arriving then
 * would queue behind it (bench:purge, docs/benchmarks.md). A day detached but not yet dropped (the process stopped
 * between the steps) is dropped by the next run.
 */
export async function dropExpiredPartitions(
  db: Db,
  family: PartitionFamily,
  options: { now: Date; keepDays: number; releaseOutside?: ReleaseOutside },
): Promise<string[]> {
  const before = addDays(options.now, -options.keepDays);
  const dropped: string[] = [];
  for (const partition of await listPartitions(db, family)) {
    if (partition.isDefault || partition.endsAt! > before) continue;
    const reason = await reasonToKeep(db, family, partition);
    if (reason) {
      log.info(`partition kept past every window: ${reason}`, { partition: partition.name });
      continue;
    }
    const suffix = partition.name.slice(rootOf(family).name.length + 1);
    // Before the rows go: released bytes of rows still in the database are past their window anyway.
    await options.releaseOutside?.(family, (table) => `${table}_${suffix}`);
    await inLockBoundTransaction(db, family, (tx) =>
      runDdl(
        tx,
        family.tables.map((table) => `ALTER TABLE "${table.name}" DETACH PARTITION "${table.name}_${suffix}"`),
      ),
    );
    dropped.push(partition.name);
  }
  await dropDetachedDays(db, family);
  return dropped;
}

/**
 * Drops the family's day tables that are no longer partitions: detached above, or by a run that stopped before
 * dropping them. A table at a time, the tables whose keys point at another first (the timeline before its messages),
 * and each file on its own with a pause between: every index, then the rows (`TRUNCATE`), then the empty table. Each
 * step's commit unlinks one file under the day's own locks only, so the disk work comes in short bursts the sends'
 * WAL flushes can pass between, not one burst of the whole day (0.65 s for a day of 1,000,000 messages:
 * docs/benchmarks.md#purging-never-stalls-sending-npm-run-benchpurge). A drop also locks the tables the day's keys point
 * to (workspaces, templates) until its commit, which is quick once the files are gone. Each step gives up on a lock
 * after `LOCK_TIMEOUT`, as every change of the manager does; the next run finds the rest of the day again.
 */
async function dropDetachedDays(db: Db, family: PartitionFamily): Promise<void> {
  for (const table of [...family.tables].reverse()) {
    for (const leaf of await detachedDaysOf(db, table.name)) {
      for (const { statement, bytes } of await dropIndexStatements(db, leaf)) {
        await runDdlBounded(db, [statement]);
        await pauseAfter(bytes);
      }
      const bytes = await sizeOf(db, leaf);
      await runDdlBounded(db, [`TRUNCATE TABLE "${leaf}"`]);
      await pauseAfter(bytes);
      await runDdlBounded(db, [`DROP TABLE IF EXISTS "${leaf}"`]);
    }
  }
}

/** After a large file's unlink, long enough for the sends' commits queued behind the disk to flush; an empty day's
 * files (a day made ahead and never used, a test's) take no pause. */
const PAUSE_MS = 100;
const PAUSE_FROM_BYTES = 16 * 1024 * 1024;
const pauseAfter = (bytes: number) =>
  bytes >= PAUSE_FROM_BYTES ? new Promise((resolve) => setTimeout(resolve, PAUSE_MS)) : Promise.resolve();

/** The table's files: heap, TOAST and what indexes are left. */
async function sizeOf(db: Db, leaf: string): Promise<number> {
  const [row] = rowsOf(
    await db.execute(sql`select pg_total_relation_size(to_regclass(${`public."${leaf}"`})) as bytes`),
  );
  return Number(row?.bytes ?? 0);
}

/** One statement per index of a detached day table, with the index's size: a key's index goes with its constraint. */
async function dropIndexStatements(db: Db, leaf: string): Promise<Array<{ statement: string; bytes: number }>> {
  const rows = rowsOf(
    await db.execute(sql`
      select i.relname as index, c.conname as constraint, pg_relation_size(x.indexrelid) as bytes from pg_index x
      join pg_class i on i.oid = x.indexrelid
      left join pg_constraint c on c.conindid = x.indexrelid and c.conrelid = x.indrelid
      where x.indrelid = to_regclass(${`public."${leaf}"`})`),
  );
  return rows.map((row) => ({
    statement: row.constraint
      ? `ALTER TABLE "${leaf}" DROP CONSTRAINT "${String(row.constraint)}"`
      : `DROP INDEX IF EXISTS "${String(row.index)}"`,
    bytes: Number(row.bytes),
  }));
}

/** The tables named as the table's day or legacy partitions (`<table>_p20261129`, `<table>_legacy`) that are not
 * partitions of anything. */
async function detachedDaysOf(db: Db, table: string): Promise<string[]> {
  const rows = rowsOf(
    await db.execute(sql`
      select c.relname as name from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and not c.relispartition
        and c.relname ~ ${`^${table}_(p[0-9]{8}|legacy)$`}`),
  );
  return rows.map((row) => String(row.name));
}

/**
 * Why a range past every window must stay, or null: a workspace on legal hold has rows in it, or a row in it still
 * waits for work (the family's `waiting`), which the batch purges keep too. One probe per workspace of the range's
 * (workspace_id, …) indexes: no scan of the range.
 */
async function reasonToKeep(db: Db, family: PartitionFamily, partition: Partition): Promise<string | null> {
  const suffix = partition.name.slice(rootOf(family).name.length + 1);
  const [row] = rowsOf(
    await db.execute(
      sql.raw(`select
        exists (select 1 from workspaces w where w.legal_hold
          and exists (select 1 from "${partition.name}" m where m.workspace_id = w.id)) as held,
        ${family.waiting((table) => `${table}_${suffix}`)} as waiting`),
    ),
  );
  if (row?.held) return "a workspace on legal hold has rows in it";
  if (row?.waiting) return "a row in it still waits for work";
  return null;
}
