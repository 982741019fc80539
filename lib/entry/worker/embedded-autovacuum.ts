import "server-only";
import { sql } from "drizzle-orm";
import type { DbHandle } from "@/db/client";
import { errorFields, log } from "@/lib/foundation/log";

// PGlite runs no autovacuum launcher, so tables would never be analyzed (plans guessed for empty tables) or vacuumed.
// This applies autovacuum's default thresholds to pg_stat_user_tables, one table at a time. Like autovacuum, it
// treats each partition as a table; unlike it, it also analyzes a partitioned table (the messages, partitioned by
// day) when its partitions' rows drift from its last count, since queries on the parent plan with the parent's
// statistics and PostgreSQL's own autovacuum never gathers them (its documentation asks for a manual ANALYZE).
const CHECK_EVERY_MS = 10_000;

interface TableStats {
  schema: string;
  table: string;
  reltuples: number;
  dead: number;
  modified: number;
  inserted: number;
}

export interface AutovacuumWork {
  table: string;
  statement: "VACUUM (ANALYZE)" | "VACUUM" | "ANALYZE";
}

/** What autovacuum would do now, with its default thresholds. */
export function dueWork(tables: TableStats[]): AutovacuumWork[] {
  return tables.flatMap((stats): AutovacuumWork[] => {
    const rows = Math.max(stats.reltuples, 0);
    const vacuum = stats.dead > 50 + 0.2 * rows || stats.inserted > 1000 + 0.2 * rows;
    const analyze = stats.modified > 50 + 0.1 * rows;
    const table = `${quoteIdent(stats.schema)}.${quoteIdent(stats.table)}`;
    if (!vacuum && !analyze) return [];
    return [{ table, statement: vacuum && analyze ? "VACUUM (ANALYZE)" : vacuum ? "VACUUM" : "ANALYZE" }];
  });
}

/** A partitioned table: its statistics' row count, and what its partitions count now. */
interface PartitionedStats {
  schema: string;
  table: string;
  reltuples: number;
  liveInPartitions: number;
}

/** ANALYZE of partitioned tables whose partitions' rows moved past the analyze threshold since its last count. */
export function duePartitionedAnalyze(tables: PartitionedStats[]): AutovacuumWork[] {
  return tables.flatMap((stats): AutovacuumWork[] => {
    const rows = Math.max(stats.reltuples, 0);
    if (Math.abs(stats.liveInPartitions - rows) <= 50 + 0.1 * rows) return [];
    return [{ table: `${quoteIdent(stats.schema)}.${quoteIdent(stats.table)}`, statement: "ANALYZE" }];
  });
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

const rowsOf = <T>(result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];

export async function runAutovacuumPass(handle: DbHandle): Promise<AutovacuumWork[]> {
  const tables = rowsOf<TableStats>(
    await handle.db.execute(sql`
      select s.schemaname as schema, s.relname as table, c.reltuples::float8 as reltuples, s.n_dead_tup::float8 as dead,
             s.n_mod_since_analyze::float8 as modified, s.n_ins_since_vacuum::float8 as inserted
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where c.relkind <> 'p'`),
  );
  const partitioned = rowsOf<PartitionedStats>(
    await handle.db.execute(sql`
      select n.nspname as schema, p.relname as table, p.reltuples::float8 as reltuples,
             coalesce(sum(s.n_live_tup), 0)::float8 as "liveInPartitions"
      from pg_class p join pg_namespace n on n.oid = p.relnamespace
      left join pg_class c on c.relispartition and pg_partition_root(c.oid) = p.oid and c.relkind <> 'p'
      left join pg_stat_user_tables s on s.relid = c.oid
      where p.relkind = 'p' and not p.relispartition and n.nspname not in ('pg_catalog', 'information_schema')
      group by n.nspname, p.relname, p.reltuples`),
  );
  // The partitions first, so the parent's ANALYZE samples them vacuumed.
  const work = [...dueWork(tables), ...duePartitionedAnalyze(partitioned)];
  for (const item of work) {
    const started = performance.now();
    await handle.db.execute(sql.raw(`${item.statement} ${item.table}`));
    log.debug("embedded autovacuum", {
      statement: item.statement,
      table: item.table,
      ms: Math.round(performance.now() - started),
    });
  }
  return work;
}

/** Starts the passes on an embedded database (a no-op on PostgreSQL, whose own autovacuum runs). */
export function startEmbeddedAutovacuum(handle: DbHandle, everyMs = CHECK_EVERY_MS): { stop(): Promise<void> } {
  if (handle.driver !== "pglite") return { stop: async () => {} };
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    timer = setTimeout(() => {
      running = runAutovacuumPass(handle)
        .catch((error) => log.warn("embedded autovacuum pass failed", errorFields(error)))
        .finally(() => (stopped ? undefined : schedule()));
    }, everyMs);
    timer.unref();
  };
  schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
