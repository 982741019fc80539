import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { now as clockNow } from "@/lib/foundation/clock";

/**
 * Per queue, the seconds the job a worker would take next has been due (0 when nothing waits): the head of pg-boss's
 * fetch order (priority, then created_on) among waiting jobs whose time has come, due since the later of its creation
 * and its start_after (a retry or a scheduled send is not late before its time). One probe of pg-boss's fetch index
 * (job_i11) per queue, the same walk a worker's fetch makes; finished jobs are never read.
 */
export async function queueLag(queues: readonly string[], now: Date = clockNow()): Promise<Map<string, number>> {
  const lag = new Map(queues.map((queue) => [queue, 0]));
  if (queues.length === 0) return lag;
  const at = now.toISOString();
  const names = sql.join(
    queues.map((queue) => sql`${queue}`),
    sql`, `,
  );
  const db = await getDb();
  const rows = rowsOf(
    await db.execute(sql`
      select q.name, extract(epoch from ${at}::timestamptz - head.due) as lag
      from pgboss.queue q
      cross join lateral (
        select greatest(j.created_on, j.start_after) as due from pgboss.job j
        where ${waiting(sql`q.name`, at)}
        order by j.priority desc, j.created_on
        limit 1
      ) head
      where q.name in (${names})`),
  );
  for (const row of rows) lag.set(String(row.name), Math.max(0, Number(row.lag)));
  return lag;
}

/** Waiting jobs of one queue whose time has come, counted up to `limit` (a backlog of millions is not walked). */
export async function countWaitingJobs(queue: string, limit: number, now: Date = clockNow()): Promise<number> {
  const db = await getDb();
  const jobs = sql`select 1 from pgboss.job j where ${waiting(sql`${queue}`, now.toISOString())} limit ${limit}`;
  const rows = rowsOf(await db.execute(sql`select count(*) as waiting from (${jobs}) w`));
  return Number(rows[0]?.waiting ?? 0);
}

// Spelled as pg-boss's partial fetch index is (`state < 'active' AND NOT blocked`), so the planner can use it.
const waiting = (name: SQL, at: string) =>
  sql`j.name = ${name} and j.state < 'active' and not j.blocked and j.start_after <= ${at}::timestamptz`;
