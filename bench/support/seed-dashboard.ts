/**
 * Set-based seeding of the tables beside email_messages that the dashboard lists (bench:dashboard),
 * in proportion to `count` messages seeded by seedMessages with `varied` and the same `endAt`: the
 * batches and workflow runs those messages name, a contact per 10 messages, an API request per 4.
 */
import { sql } from "drizzle-orm";
import type { DbHandle } from "@/db/client";
import { seededId } from "./seeded-id";

const CHUNK = 200_000;

/** Runs `insert` over 1..total in CHUNK-sized ranges (one statement each: bounded memory and WAL). */
async function inChunks(total: number, insert: (from: number, to: number) => Promise<unknown>) {
  for (let from = 1; from <= total; from += CHUNK) await insert(from, Math.min(total, from + CHUNK - 1));
}

export async function seedDashboardTables(
  handle: DbHandle,
  workspaceId: string,
  count: number,
  endAt: Date,
  workflowId: string,
): Promise<void> {
  const started = performance.now();
  const end = endAt.toISOString();
  const db = handle.db;
  // One batch per 1,000 message numbers (seedMessages: batch_id = g / 1000 for its BATCH messages).
  await db.execute(sql`
    insert into batches (id, workspace_id, sandbox, count, created_at, updated_at)
    select 'batch_S' || lpad(b::text, 15, '0'), ${workspaceId}, false, 100, t.at, t.at
    from generate_series(0, ${Math.floor(count / 1000)}::int) b,
         lateral (select ${end}::timestamptz - make_interval(secs => (b * 1000)::double precision / 10) as at) t`);
  // A run per WORKFLOW message (g % 20 = 1 and not SANDBOX_API, as seedMessages decides the source).
  await inChunks(count, (from, to) =>
    db.execute(sql`
      insert into workflow_runs (id, workspace_id, workflow_id, workflow_key, sandbox, status, steps, next_step, completed_at, created_at, updated_at)
      select 'wfr_S' || lpad(g::text, 15, '0'), ${workspaceId}, ${workflowId}, 'welcome', false,
             case when g % 100 = 41 then 'FAILED' else 'COMPLETED' end, '[]'::jsonb, 1, t.at, t.at, t.at
      from generate_series(${from}::int, ${to}::int) g,
           lateral (select ${end}::timestamptz - make_interval(secs => g::double precision / 10) as at) t
      where g % 20 = 1 and g % 50 <> 3`),
  );
  await inChunks(Math.floor(count / 10), (from, to) =>
    db.execute(sql`
      insert into contacts (id, workspace_id, email, name, created_at, updated_at)
      select 'ct_S' || lpad(g::text, 15, '0'), ${workspaceId}, 'user' || g || '@example.org', 'Reader ' || g, t.at, t.at
      from generate_series(${from}::int, ${to}::int) g,
           lateral (select ${end}::timestamptz - make_interval(secs => g::double precision) as at) t`),
  );
  // API requests: 2% errors, 2% sandbox, bodies of a typical send; each names the message seedMessages made at its time.
  const messageId = seededId("em_", sql`t.at`, sql`lpad((g * 4)::text, 8, '0')`);
  await inChunks(Math.floor(count / 4), (from, to) =>
    db.execute(sql`
      insert into activity_logs (id, workspace_id, api_key_id, method, path, status, duration_ms, sandbox, error_code, resource_id, request_body, response_body, created_at)
      select 'act_S' || lpad(g::text, 15, '0'), ${workspaceId}, null, 'POST', '/v1/email_messages',
             case when g % 50 = 7 then 422 else 201 end, 12, g % 50 = 3, case when g % 50 = 7 then 'INVALID_PARAMETER' end,
             ${messageId},
             jsonb_build_object('from', 'bench@example.com', 'to', 'user' || (g % 1000) || '@example.org', 'subject', 'Seeded ' || g),
             jsonb_build_object('data', jsonb_build_object('id', ${messageId})), t.at
      from generate_series(${from}::int, ${to}::int) g,
           lateral (select ${end}::timestamptz - make_interval(secs => (g * 4)::double precision / 10) as at) t`),
  );
  await db.execute(sql`analyze batches`);
  await db.execute(sql`analyze workflow_runs`);
  await db.execute(sql`analyze contacts`);
  await db.execute(sql`analyze activity_logs`);
  console.log(
    `  seeded batches, workflow runs, contacts and activity in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
