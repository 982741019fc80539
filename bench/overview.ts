/**
 * npm run bench:overview [-- --seed 1000000 --days 14 --runs 7]
 *
 * Times the Overview's reads (getOverview and listRecentProblems) on the PostgreSQL server, in a
 * scratch database, with `--seed` messages in one workspace spread evenly over the last `--days`
 * days (14: every message is in the window, the worst case) plus as many in a second workspace.
 * Prints seeding time, the plan of the per-day query (the rollups), the median of counting the same
 * straight from email_messages, and the median and worst of `--runs` warm runs of the page's reads.
 * A benchmark, not a test: figures vary with the machine.
 */
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { installDbHandle, openPostgres } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { getOverview, overviewDirectQuery, overviewQuery, overviewSince } from "@/lib/domain/insights/get-overview";
import { listRecentProblems } from "@/lib/domain/insights/list-recent-problems";
import { createWorkspace } from "@/lib/domain/workspaces/create-workspace";
import { seededId } from "./support/seeded-id";
import { scratchPostgres } from "./support/server";

const { values: args } = parseArgs({
  options: {
    seed: { type: "string", default: "1000000" },
    days: { type: "string", default: "14" },
    runs: { type: "string", default: "7" },
    "pg-url": {
      type: "string",
      default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
  },
});
const SEED = Number(args.seed);
const DAYS = Number(args.days);
const RUNS = Number(args.runs);

/** Set-based: sandbox 10%; of live, sent 99.5%, delivered 97%, opened 30%, clicked 10%, bounced 1%, failed 0.5%. */
async function seed(db: Awaited<ReturnType<typeof openPostgres>>["db"], workspaceId: string, prefix: string) {
  const chunk = 100_000;
  const spanSeconds = DAYS * 86_400 - 60;
  for (let from = 1; from <= SEED; from += chunk) {
    const to = Math.min(SEED, from + chunk - 1);
    await db.execute(sql`
      insert into email_messages (id, workspace_id, source, sandbox, status, "to", to_addresses, "from", subject, body_html, body_text,
                                  sent_at, delivered_at, first_opened_at, first_clicked_at, first_bounced_at, errored_at, created_at, updated_at)
      select ${seededId("em_", sql`t.at`, sql`${prefix} || lpad(g::text, 8, '0')`)}, ${workspaceId}, case when g % 10 = 0 then 'SANDBOX_API' else 'API' end, g % 10 = 0,
             case when g % 200 = 1 then 'FAILED' else 'SUCCEEDED' end,
             jsonb_build_array('user' || g || '@example.org'), array['user' || g || '@example.org'], 'bench@example.com', 'Seeded ' || g, '<p>seeded</p>', 'seeded',
             case when g % 10 <> 0 and g % 200 <> 1 then t.at end,
             case when g % 10 <> 0 and g % 100 < 97 and g % 200 <> 1 then t.at end,
             case when g % 10 <> 0 and g % 100 < 30 then t.at end,
             case when g % 10 <> 0 and g % 100 < 10 then t.at end,
             case when g % 10 <> 0 and g % 100 = 99 then t.at end,
             case when g % 200 = 1 then t.at end,
             t.at, t.at
      from generate_series(${from}::int, ${to}::int) g,
           lateral (select now() - make_interval(secs => (g::double precision / ${SEED}) * ${spanSeconds}) as at) t`);
  }
}

async function time<T>(work: () => Promise<T>): Promise<{ median: number; worst: number; result: T }> {
  let result = await work(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    result = await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], worst: times[times.length - 1], result };
}

async function main() {
  const database = await scratchPostgres(args["pg-url"]!);
  if (!database) return;
  const handle = await openPostgres(database.url, 4);
  try {
    await migrateDatabase(handle);
    installDbHandle(handle);
    const workspace = await createWorkspace({ name: "Bench" });
    const neighbour = await createWorkspace({ name: "Neighbour" });
    const started = performance.now();
    await seed(handle.db, workspace.id, "A");
    await seed(handle.db, neighbour.id, "B");
    await handle.db.execute(sql`vacuum analyze email_messages`);
    console.log(
      `seeded ${SEED.toLocaleString("en")} messages per workspace (2 workspaces) over ${DAYS} days in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const since = overviewSince(new Date());
    const plan = (await handle.db.execute(
      sql`explain (analyze, buffers) ${overviewQuery(handle.db, workspace.id, since)}`,
    )) as unknown as Array<Record<string, string>>;
    console.log(
      `plan of the per-day query (overview_day_counts):\n  ${plan.map((row) => Object.values(row)[0]).join("\n  ")}`,
    );
    const direct = await time(() => overviewDirectQuery(handle.db, workspace.id, since));
    console.log(
      `the same counts straight from email_messages (what the page did before the rollups): median ${direct.median.toFixed(0)} ms`,
    );

    const overview = await time(() => getOverview(workspace.id));
    console.log(
      `getOverview: median ${overview.median.toFixed(0)} ms, worst ${overview.worst.toFixed(0)} ms (${overview.result.messages.toLocaleString("en")} messages in the window)`,
    );
    const bounces = overview.result.totals.live.bounced > 0;
    const problems = await time(() => listRecentProblems(workspace.id, { since, bounces }));
    console.log(
      `listRecentProblems: median ${problems.median.toFixed(1)} ms, worst ${problems.worst.toFixed(1)} ms (${problems.result.length} problems)`,
    );
  } finally {
    await handle.close();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
