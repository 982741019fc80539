import "server-only";
import { sql } from "drizzle-orm";
import type { DbHandle } from "@/db/client";
import { errorFields, log } from "@/lib/foundation/log";

// PGlite runs no autovacuum launcher, so tables would never be analyzed (plans guessed for empty tables) or vacuumed.
// This applies autovacuum's default thresholds to pg_stat_user_tables, one table at a time.
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
