/**
 * npm run bench:compact [-- --messages 20000,50000,200000 --events 4]
 *
 * What compacting a day costs once its bodies are purged (lib/records/partitions/compact-purged-days.ts), on the
 * PostgreSQL server in a scratch database. For each size: a past day is filled with `--messages` messages (a body
 * of ~1.3 KB of hex each, `--events` timeline events each), their bodies purged by the same update the retention
 * purge makes, and the day vacuumed, as autovacuum would. Then the day is compacted (rewritten up to
 * COMPACT_MAX_ROWS messages, its indexes rebuilt online above) while a reader lists the
 * workspace's newest 50 messages back to back (a list reads every day, so it waits for each table's rewrite).
 * Prints the time the compaction took, the bytes a message kept before and after, and the reader's slowest list
 * during the compaction against its slowest before. A benchmark, not a test: compare the figures of one run.
 */
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { installDbHandle, openPostgres } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { migrateDatabase } from "@/db/migrate";
import { createWorkspace } from "@/lib/domain/workspaces/create-workspace";
import { addDays, dayStart, daySuffix, idBound } from "@/lib/records/partitions/bounds";
import { COMPACT_MAX_ROWS, compactPurgedDays } from "@/lib/records/partitions/compact-purged-days";
import { MESSAGE_FAMILY } from "@/lib/records/partitions/family";
import { maintainPartitions } from "@/lib/records/partitions/maintain-partitions";
import { scratchPostgres } from "./support/server";

const { values: args } = parseArgs({
  options: {
    messages: { type: "string", default: "20000,50000,200000" },
    events: { type: "string", default: "4" },
    "pg-url": {
      type: "string",
      default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
  },
});
const SIZES = args.messages!.split(",").map(Number);
const EVENTS = Number(args.events);

type Db = Awaited<ReturnType<typeof openPostgres>>["db"];

/** `count` messages of `day` with their events, their bodies then purged by an update, and the day vacuumed. */
async function fillPurgedDay(db: Db, workspaceId: string, day: Date, count: number) {
  const bound = idBound("em_", day);
  await db.execute(sql`
    insert into email_messages (id, workspace_id, source, sandbox, status, "to", to_addresses, "from", subject,
                                body_html, body_text, sent_at, delivered_at, created_at, updated_at)
    select ${bound} || lpad(g::text, 8, '0'), ${workspaceId}, 'API', false, 'SUCCEEDED',
           jsonb_build_array('reader' || g || '@example.org'), array['reader' || g || '@example.org'],
           'bench@example.com', 'Your order ' || g,
           (select string_agg(md5(random()::text || x), '') from generate_series(1, 40) x), 'Your order', t.at, t.at,
           t.at, t.at
    from generate_series(1, ${count}::int) g,
         lateral (select ${day.toISOString()}::timestamptz + make_interval(secs => g * 86000.0 / ${count}) as at) t`);
  await db.execute(sql`
    insert into email_message_logs (id, workspace_id, email_message_id, code, message, created_at, updated_at)
    select 'ev_' || substr(${bound}, 4) || lpad((g * ${EVENTS} + k)::text, 8, '0'), ${workspaceId},
           ${bound} || lpad(g::text, 8, '0'), 'EMAIL_MESSAGE_SENT_PROVIDER_EVENT', 'Recorded.',
           ${day.toISOString()}::timestamptz, ${day.toISOString()}::timestamptz
    from generate_series(1, ${count}::int) g, generate_series(0, ${EVENTS - 1}) k`);
  const leaves = MESSAGE_FAMILY.tables.map((table) => `${table.name}_${daySuffix(day)}`);
  await db.execute(sql.raw(`update ${leaves[0]} set body_html = '', body_text = '', content_purged_at = updated_at`));
  await db.execute(sql.raw(`vacuum (analyze) ${leaves.join(", ")}`));
  return leaves;
}

async function bytesOf(db: Db, leaves: string[]): Promise<number> {
  const [row] = rowsOf(
    await db.execute(
      sql.raw(`select ${leaves.map((leaf) => `pg_total_relation_size('${leaf}')`).join(" + ")} as bytes`),
    ),
  );
  return Number(row.bytes);
}

/** Lists the workspace's newest 50 messages back to back until `until` settles; each list's time in ms. */
async function listWhile(db: Db, workspaceId: string, until: Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    const started = performance.now();
    await db.execute(sql`
      select id from email_messages where workspace_id = ${workspaceId} order by created_at desc, id desc limit 50`);
    times.push(performance.now() - started);
  }
  return times;
}

async function main() {
  const database = await scratchPostgres(args["pg-url"]!);
  if (!database) return;
  const handle = await openPostgres(database.url, 4);
  const db = handle.db;
  try {
    await migrateDatabase(handle);
    installDbHandle(handle);
    const now = new Date();
    await maintainPartitions({ now }); // seals the legacy tables, creates the days ahead
    const workspace = await createWorkspace({ name: "Compaction bench" });
    console.log(`${EVENTS} events a message; lists of the newest 50 read back to back meanwhile`);
    console.log("messages  way       compaction ms  bytes a message before → after  slowest list before / during (ms)");
    for (const [index, count] of SIZES.entries()) {
      const day = addDays(dayStart(now), 3 + index);
      const leaves = await fillPurgedDay(db, workspace.id, day, count);
      const before = await bytesOf(db, leaves);
      const idle = await listWhile(db, workspace.id, new Promise((resolve) => setTimeout(resolve, 1000)));
      const started = performance.now();
      const compaction = compactPurgedDays({ now: addDays(day, 2) });
      const during = await listWhile(db, workspace.id, compaction);
      const compacted = await compaction;
      const ms = performance.now() - started;
      if (!compacted.includes(leaves[0])) throw new Error(`the day was not compacted: ${compacted}`);
      const after = await bytesOf(db, leaves);
      console.log(
        `${String(count).padStart(8)}  ${(count <= COMPACT_MAX_ROWS ? "rewrite" : "indexes").padEnd(8)}  ${ms.toFixed(0).padStart(13)}  ${(before / count).toFixed(0).padStart(13)} → ${(after / count).toFixed(0).padEnd(15)}  ${Math.max(...idle).toFixed(1)} / ${Math.max(...during).toFixed(1)}`,
      );
    }
  } finally {
    await handle.close();
    await database.drop();
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => process.exit());
