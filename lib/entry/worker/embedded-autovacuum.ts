import "server-only";
import { sql } from "drizzle-orm";
import type { DbHandle } from "@/db/client";
import { errorFields, log } from "@/lib/foundation/log";

/**
 * PostgreSQL's autovacuum, for the embedded database. PGlite is a single backend: no autovacuum
 * launcher runs, so without this no table is ever analyzed or vacuumed. Tables that grew since the
 * start keep the planner's guess for an empty table (a page of GET /v1/email_messages then sorted the
 * whole workspace instead of walking its index), and every updated or deleted row (a message's status,
 * pg-boss's finished jobs) stays behind as a dead tuple that inserts and scans keep stepping over.
 *
 * Every CHECK_EVERY_MS it reads the same statistics autovacuum reads (pg_stat_user_tables, which
 * PGlite keeps) and applies autovacuum's default thresholds, table by table, in its own statements:
 * ANALYZE once more than 50 + 10 % of a table's rows changed since the last one; VACUUM once more
 * than 50 + 20 % are dead, or 1,000 + 20 % were inserted since the last (the visibility map, for
 * index-only scans). PGlite runs one statement at a time, so a request waits while a table is
 * processed: tens of milliseconds at the sizes embedded mode is for (docs/self-hosting.md#embedded-mode-default).
 */
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

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** One pass: read the statistics, process each due table. Returns what it did. */
export async function runAutovacuumPass(handle: DbHandle): Promise<AutovacuumWork[]> {
  const rows = (await handle.db.execute(sql`
    select s.schemaname as schema, s.relname as table, c.reltuples::float8 as reltuples, s.n_dead_tup::float8 as dead,
           s.n_mod_since_analyze::float8 as modified, s.n_ins_since_vacuum::float8 as inserted
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid`)) as unknown;
  const tables = (Array.isArray(rows) ? rows : (rows as { rows: TableStats[] }).rows) as TableStats[];
  const work = dueWork(tables);
  for (const item of work) {
    const started = performance.now();
    await handle.db.execute(sql.raw(`${item.statement} ${item.table}`));
    log.debug("embedded autovacuum", { statement: item.statement, table: item.table, ms: Math.round(performance.now() - started) });
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
