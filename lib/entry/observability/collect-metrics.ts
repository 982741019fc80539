import "server-only";
import { count, eq, isNotNull, sql } from "drizzle-orm";
import { getDb, getDbHandle } from "@/db/client";
import { workspaces } from "@/db/schema";
import { errorFields, log } from "@/lib/foundation/log";
import { metrics } from "@/lib/foundation/metrics/metrics";
import { getQueue, QUEUES } from "@/lib/records/queue/queue";
import { rowsOf, withTimeout } from "./query";

/** A scrape must answer even when the database is slow: a gauge that could not be read keeps its last value. */
const COLLECT_TIMEOUT_MS = 3_000;

/** One query per gauge; a failed read is logged and leaves the others alone, so the scrape still answers. */
export async function collectScrapeGauges(): Promise<void> {
  await Promise.all(
    Object.entries(COLLECTORS).map(async ([name, collect]) => {
      try {
        await withTimeout(collect(), COLLECT_TIMEOUT_MS);
      } catch (error) {
        log.warn("metrics collector failed", { collector: name, ...errorFields(error) });
      }
    }),
  );
}

interface QueueRow {
  name: string;
  state: string;
  jobs: string | number;
  oldest: string | number | null;
}

const COLLECTORS: Record<string, () => Promise<void>> = {
  async queue() {
    const db = await getDb();
    // pgboss.job is partitioned by queue name; unfinished jobs are few, finished ones are not read.
    const rows = rowsOf<QueueRow>(
      await db.execute(sql`
        select name, state::text as state, count(*) as jobs,
          extract(epoch from now() - min(start_after) filter (where state in ('created', 'retry') and start_after <= now())) as oldest
        from pgboss.job where state in ('created', 'retry', 'active') group by name, state`),
    );
    const { queueJobs, queueOldestAge } = metrics();
    queueJobs.reset();
    queueOldestAge.reset();
    const oldest = new Map<string, number>(Object.values(QUEUES).map((queue) => [queue, 0]));
    for (const queue of Object.values(QUEUES))
      for (const state of ["created", "retry", "active"]) queueJobs.set({ queue, state }, 0);
    for (const row of rows) {
      queueJobs.set({ queue: row.name, state: row.state }, Number(row.jobs));
      if (row.oldest !== null) oldest.set(row.name, Math.max(oldest.get(row.name) ?? 0, Number(row.oldest)));
    }
    for (const [queue, age] of oldest) queueOldestAge.set({ queue }, age);
  },
  async pausedWorkspaces() {
    const db = await getDb();
    const [row] = await db.select({ paused: count() }).from(workspaces).where(eq(workspaces.sendingPaused, true));
    metrics().pausedWorkspaces.set(row?.paused ?? 0);
  },
  async warnedWorkspaces() {
    const db = await getDb();
    const [row] = await db
      .select({ warned: count() })
      .from(workspaces)
      .where(isNotNull(workspaces.deliverabilityWarning));
    metrics().warnedWorkspaces.set(row?.warned ?? 0);
  },
  async databaseConnections() {
    const handle = await getDbHandle();
    // postgres.js does not expose its pool's use; the server's view covers every process's connections.
    if (handle.driver !== "postgres") return;
    const rows = rowsOf<{ state: string; connections: string | number }>(
      await handle.db.execute(
        sql`select coalesce(state, 'unknown') as state, count(*) as connections from pg_stat_activity where datname = current_database() group by 1`,
      ),
    );
    const { databaseConnections } = metrics();
    databaseConnections.reset();
    for (const row of rows) databaseConnections.set({ state: row.state }, Number(row.connections));
  },
  async workerLoops() {
    const now = Date.now();
    const { workerFetchAge } = metrics();
    workerFetchAge.reset();
    const oldest = new Map<string, number>();
    for (const loop of (await getQueue()).getWipData({ includeInternal: false })) {
      const age = (now - (loop.lastFetchedOn ?? loop.createdOn)) / 1000;
      oldest.set(loop.name, Math.max(oldest.get(loop.name) ?? 0, age));
    }
    for (const [queue, age] of oldest) workerFetchAge.set({ queue }, age);
  },
};
