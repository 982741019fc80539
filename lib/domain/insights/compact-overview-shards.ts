import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";

/**
 * Folds past days' per-backend shards into shard 0, so about one row per workspace and day remains. SKIP LOCKED: it never
 * waits on a send nor a send on it; a row skipped now is folded next hour.
 */
export async function compactOverviewShards(now = new Date()): Promise<number> {
  const today = now.toISOString().slice(0, 10);
  const db = await getDb();
  const result = await db.execute<{ folded: number }>(sql`
    with taken as (
      select workspace_id, day, sandbox, shard from overview_day_counts
      where day < ${today}::date and shard <> 0
      for update skip locked
    ), folded as (
      delete from overview_day_counts c using taken
      where c.workspace_id = taken.workspace_id and c.day = taken.day and c.sandbox = taken.sandbox and c.shard = taken.shard
      returning c.*
    ), merged as (
      insert into overview_day_counts as c (workspace_id, day, sandbox, shard, accepted, sent, delivered, opened, clicked, bounced, complained, failed)
      select workspace_id, day, sandbox, 0, sum(accepted), sum(sent), sum(delivered), sum(opened), sum(clicked), sum(bounced), sum(complained), sum(failed)
      from folded group by workspace_id, day, sandbox
      on conflict (workspace_id, day, sandbox, shard) do update set accepted = c.accepted + excluded.accepted, sent = c.sent + excluded.sent,
        delivered = c.delivered + excluded.delivered, opened = c.opened + excluded.opened, clicked = c.clicked + excluded.clicked,
        bounced = c.bounced + excluded.bounced, complained = c.complained + excluded.complained, failed = c.failed + excluded.failed
    )
    select count(*)::int as folded from folded`);
  const rows = Array.isArray(result) ? result : (result as unknown as { rows: Array<{ folded: number }> }).rows;
  return Number(rows[0]?.folded ?? 0);
}
