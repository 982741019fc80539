/** Set-based seeding of email_messages for the bench scripts (bench:api, bench:dashboard). */
import { sql } from "drizzle-orm";
import type { DbHandle } from "@/db/client";
import { seededId } from "./seeded-id";

export interface SeedOptions {
  /**
   * Spread rows over statuses, sources, sandbox, metaIds, batches, templates and recipients, so the
   * dashboard's filters select realistic fractions instead of all or nothing.
   */
  varied?: { templateIds: string[] };
  /** The newest message's time (default 2026-01-01): `new Date()` puts the seed in the Overview's window. */
  endAt?: Date;
}

/**
 * Inserts `count` messages into one workspace in 100,000-row statements, one every 0.1 s of
 * created_at back from `endAt` (2026-01-01), then analyzes (as autovacuum would after a bulk load: without
 * statistics the planner may skip the index). Returns the id of a message ~90% deep, for cursor pages.
 */
export async function seedMessages(
  handle: DbHandle,
  workspaceId: string,
  count: number,
  options: SeedOptions = {},
): Promise<string> {
  const chunk = 100_000;
  const started = performance.now();
  const templates = options.varied?.templateIds ?? [];
  const endAt = (options.endAt ?? new Date("2026-01-01T00:00:00Z")).toISOString();
  const templateArray = sql`array[${sql.join(templates.length ? templates.map((id) => sql`${id}`) : [sql`null`], sql`, `)}]::text[]`;
  for (let from = 1; from <= count; from += chunk) {
    const to = Math.min(count, from + chunk - 1);
    if (options.varied) {
      // status: 1% FAILED, 1% PENDING, 0.1% DELETED, else SUCCEEDED; source: 1 in 10 BATCH, 1 in 20
      // WORKFLOW (a run each), 1 in 50 SANDBOX_API; 1 in 5 has a template; metaId per 4 messages;
      // 1,000 recipients; of the sent, 97% delivered, 30% opened, 10% clicked, 1% bounced.
      await handle.db.execute(sql`
        insert into email_messages (id, workspace_id, source, sandbox, status, template_id, batch_id, batch_index, workflow_run_id, meta_id, "to", to_addresses, "from", subject, body_html, body_text,
                                    processed_at, sent_at, delivered_at, first_opened_at, first_clicked_at, first_bounced_at, errored_at, created_at, updated_at)
        select ${seededId("em_", sql`t.at`, sql`lpad(g::text, 8, '0')`)}, ${workspaceId}, v.source, v.source like 'SANDBOX%', v.status,
               case when g % 5 = 0 then (${templateArray})[1 + (g / 5) % greatest(1, ${templates.length})] end,
               case when v.source = 'BATCH' then 'batch_S' || lpad((g / 1000)::text, 15, '0') end,
               case when v.source = 'BATCH' then g % 1000 end,
               case when v.source = 'WORKFLOW' then 'wfr_S' || lpad(g::text, 15, '0') end,
               'order-' || (g / 4),
               jsonb_build_array('Reader <user' || (g % 1000) || '@example.org>'), array['user' || (g % 1000) || '@example.org'],
               'bench@example.com', 'Seeded ' || g, '<p>seeded message ' || g || '</p>', 'seeded', t.at,
               case when v.status = 'SUCCEEDED' then t.at end,
               case when v.status = 'SUCCEEDED' and g % 100 < 97 then t.at end,
               case when v.status = 'SUCCEEDED' and g % 100 < 30 then t.at end,
               case when v.status = 'SUCCEEDED' and g % 100 < 10 then t.at end,
               case when v.status = 'SUCCEEDED' and g % 100 = 99 then t.at end,
               case when v.status = 'FAILED' then t.at end,
               t.at, t.at
        from generate_series(${from}::int, ${to}::int) g,
             lateral (select ${endAt}::timestamptz - make_interval(secs => g::double precision / 10) as at) t,
             lateral (select case when g % 100 = 7 then 'FAILED' when g % 100 = 8 then 'PENDING' when g % 1000 = 9 then 'DELETED' else 'SUCCEEDED' end as status,
                             case when g % 50 = 3 then 'SANDBOX_API' when g % 20 = 1 then 'WORKFLOW' when g % 10 = 2 then 'BATCH' else 'API' end as source) v`);
    } else {
      await handle.db.execute(sql`
        insert into email_messages (id, workspace_id, source, sandbox, status, "to", to_addresses, "from", subject, body_html, body_text, processed_at, sent_at, created_at, updated_at)
        select ${seededId("em_", sql`t.at`, sql`lpad(g::text, 8, '0')`)}, ${workspaceId}, 'API', false, 'SUCCEEDED',
               jsonb_build_array('user' || g || '@example.org'), array['user' || g || '@example.org'],
               'bench@example.com', 'Seeded ' || g, '<p>seeded</p>', 'seeded', t.at, t.at, t.at, t.at
        from generate_series(${from}::int, ${to}::int) g,
             lateral (select ${endAt}::timestamptz - make_interval(secs => g::double precision / 10) as at) t`);
    }
  }
  await handle.db.execute(sql`analyze email_messages`);
  const deep = (await handle.db.execute(
    sql`select id from email_messages where workspace_id = ${workspaceId} order by created_at desc, id desc offset ${Math.floor(count * 0.9)} limit 1`,
  )) as unknown;
  console.log(
    `  seeded ${count.toLocaleString("en")} messages in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return firstRow<{ id: string }>(deep).id;
}

export function firstRow<T>(result: unknown): T {
  const rows = Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
  return rows[0] as T;
}
