import "server-only";
import { sql } from "drizzle-orm";
import { getDbHandle, type Db } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { now as clockNow } from "@/lib/foundation/clock";
import { errorFields, log } from "@/lib/foundation/log";
import { isLockTimeout, runDdlBounded } from "./ddl";
import { FAMILIES, rootOf, type PartitionFamily } from "./family";
import { listPartitions } from "./list-partitions";

/**
 * The most messages a day may hold to be rewritten. The rewrite locks each of the day's tables while it writes it (a
 * list reads every day, so it waits), and takes about 21 ms per 1,000 messages with four events each on PostgreSQL
 * here: 0.44 s for 20,000, 1.1 s for 50,000, a list waiting up to 0.4 s meanwhile
 * (docs/benchmarks.md#compacting-a-day-once-its-bodies-are-gone). A larger day only has its indexes rebuilt.
 */
export const COMPACT_MAX_ROWS = 50_000;

/**
 * Compacts each past day of a family with bodies (`bodiesLeft`) once no row in it holds its body any more
 * (docs/retention.md#compacting-a-day). Purging a body is an update: the row shrinks (~2.3 KB to ~400 bytes for a
 * receipt) but its day's pages stay, since a past day takes no new rows to fill them, and each index keeps the
 * entries of both versions. A day of up to `maxRows` is written again (`CLUSTER`: rows packed in id order, indexes
 * rebuilt): a day of bench:retention's mail goes from 5.6 KB to 2.7 KB a message. One table at a time, each in a
 * transaction that gives up on a lock after `LOCK_TIMEOUT`. A larger day, on a PostgreSQL server, only has its
 * indexes rebuilt, online (`REINDEX CONCURRENTLY`), since a rewrite would lock it too long; in the embedded database
 * it is left as it is (and marked so). The root's table comes last: its primary key then marks the day done
 * (`indisclustered`), so a run stopped midway does the day again, and a done day is never done twice.
 */
export async function compactPurgedDays(options: { now?: Date; maxRows?: number } = {}): Promise<string[]> {
  const { db, driver } = await getDbHandle();
  const now = options.now ?? clockNow();
  const compacted: string[] = [];
  try {
    for (const family of FAMILIES) {
      if (!family.bodiesLeft) continue;
      for (const partition of await listPartitions(db, family)) {
        // The default and the legacy range (no lower bound) are not days; a day not over yet still changes.
        if (partition.isDefault || partition.from === null || partition.endsAt! > now) continue;
        const suffix = partition.name.slice(rootOf(family).name.length + 1);
        const leaves = [...family.tables].reverse().map((table) => `${table.name}_${suffix}`);
        const way = await wayFor(db, family, (table) => `${table}_${suffix}`, options.maxRows ?? COMPACT_MAX_ROWS);
        if (way === null) continue;
        if (way === "indexes" && driver !== "postgres") {
          await leaveAsItIs(db, leaves.at(-1)!);
          continue;
        }
        if (way === "rewrite") for (const leaf of leaves) await rewrite(db, leaf);
        else await rebuildIndexes(db, leaves);
        compacted.push(partition.name);
      }
    }
  } catch (error) {
    // Never the hourly job's failure: the steps after it (the webhook log, the domains' checks) still run.
    if (isLockTimeout(error)) log.warn("compaction waited too long for a lock; next run", { compacted });
    else log.error("compaction failed; next run", { compacted, ...errorFields(error) });
  }
  if (compacted.length) log.info("days compacted once their bodies were purged", { compacted });
  return compacted;
}

/**
 * How to compact the day, or null: done already, a body left, or no row (a day made ahead that no mail came to).
 * Three probes of indexes and at most `maxRows` rows counted.
 */
async function wayFor(
  db: Db,
  family: PartitionFamily,
  leafOf: (table: string) => string,
  maxRows: number,
): Promise<"rewrite" | "indexes" | null> {
  const root = leafOf(rootOf(family).name);
  const [row] = rowsOf(
    await db.execute(
      sql.raw(`select
        exists (select 1 from pg_index x where x.indrelid = '"${root}"'::regclass and x.indisprimary and x.indisclustered)
          as done,
        ${family.bodiesLeft!(leafOf)} as bodies,
        (select count(*) from (select 1 from "${root}" limit ${maxRows + 1}) r) as rows`),
    ),
  );
  const rows = Number(row.rows);
  if (row.done || row.bodies || rows === 0) return null;
  return rows <= maxRows ? "rewrite" : "indexes";
}

/** One table of the day, in id order by its primary key (every table of a family with bodies has one). */
async function rewrite(db: Db, leaf: string): Promise<void> {
  await runDdlBounded(db, [`CLUSTER "${leaf}" USING "${await primaryKeyOf(db, leaf)}"`]);
}

/**
 * Each table's indexes built again beside the old ones and swapped in (`REINDEX CONCURRENTLY`: reads and writes go on;
 * outside any transaction, so with no lock timeout, but it takes no lock a read or a write waits for). A run that
 * stopped during one leaves the new copy invalid (`…_ccnew`), or the old one (`…_ccold`): dropped first. Then the
 * root's primary key is marked (`CLUSTER ON`: a flag, no rewrite).
 */
async function rebuildIndexes(db: Db, leaves: string[]): Promise<void> {
  for (const leaf of leaves) {
    const invalid = rowsOf(
      await db.execute(sql`
        select i.relname as name from pg_index x join pg_class i on i.oid = x.indexrelid
        where x.indrelid = to_regclass(${`public."${leaf}"`}) and not x.indisvalid`),
    );
    for (const index of invalid) await db.execute(sql.raw(`DROP INDEX CONCURRENTLY IF EXISTS "${String(index.name)}"`));
    await db.execute(sql.raw(`REINDEX TABLE CONCURRENTLY "${leaf}"`));
  }
  await markDone(db, leaves.at(-1)!);
}

/** Too large to rewrite, and PGlite cannot rebuild online: marked done all the same, so that it is not counted
 * again every hour (its rows never change number: a past day takes no new ones). */
async function leaveAsItIs(db: Db, root: string): Promise<void> {
  await markDone(db, root);
  log.info("a past day too large to rewrite is left as it is", { partition: root });
}

/** `CLUSTER ON`: the flag `CLUSTER` sets, without a rewrite. */
async function markDone(db: Db, root: string): Promise<void> {
  await runDdlBounded(db, [`ALTER TABLE "${root}" CLUSTER ON "${await primaryKeyOf(db, root)}"`]);
}

async function primaryKeyOf(db: Db, leaf: string): Promise<string> {
  const [key] = rowsOf(
    await db.execute(sql`
      select i.relname as name from pg_index x join pg_class i on i.oid = x.indexrelid
      where x.indrelid = to_regclass(${`public."${leaf}"`}) and x.indisprimary`),
  );
  if (!key) throw new Error(`${leaf} has no primary key to order its rows by`);
  return String(key.name);
}
