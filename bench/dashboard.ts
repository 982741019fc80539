/**
 * npm run bench:dashboard [-- --skip-build --seed 1000000 --runs 50 --no-http --keep --seeded-url URL]
 *
 * Every dashboard page's server time with `--seed` messages (10,000,000 is the target) in one
 * workspace, on a scratch database of the PostgreSQL server. Seeds, set-based, varied messages
 * (statuses, sources, templates, batches, workflow runs, metaIds, recipients, outcomes) ending now,
 * so they all fall in the Overview's 14-day window (10,000,000 span 11.6 days: the worst case), and
 * in proportion the batches, runs, contacts and API requests the other pages list
 * (bench/support/seed-dashboard.ts). Then times each page's data calls in-process, as its page.tsx
 * makes them (bench/support/dashboard-pages.ts): p50/p95 over `--runs` runs; then starts the built
 * app on the same database, signs in with an Auth.js session cookie and times real GETs of every
 * page. A benchmark, not a test: it prints figures. `--keep` keeps the database (its URL is printed);
 * `--seeded-url` re-measures a database an earlier run kept instead of seeding a new one.
 */
import os from "node:os";
import { parseArgs } from "node:util";
import { closeDb, installDbHandle, openPostgres } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { workflows } from "@/db/schema";
import { addDomain } from "@/lib/domain/domains/add-domain";
import { getOverview, overviewDirectQuery, overviewFromRows, overviewSince } from "@/lib/domain/insights/get-overview";
import { newId } from "@/lib/foundation/ids";
import { listTemplateChoices } from "@/lib/domain/messages/list-dashboard-messages";
import { createTemplate } from "@/lib/domain/templates/create-template";
import { createUser } from "@/lib/domain/users/create-user";
import { createWorkspace } from "@/lib/domain/workspaces/create-workspace";
import { seedDemo } from "@/lib/flows/setup/seed-demo";
import { sql } from "drizzle-orm";
import type { DbHandle } from "@/db/client";
import { BENCH_KEY, build, percentile, scratchPostgres, startServer, tempDir } from "./support/server";
import { dashboardCases, type PageCase, type SeededView } from "./support/dashboard-pages";
import { seedDashboardTables } from "./support/seed-dashboard";
import { firstRow, seedMessages } from "./support/seed-messages";
import { encode } from "next-auth/jwt";

const { values: args } = parseArgs({
  options: {
    "skip-build": { type: "boolean", default: false },
    "no-http": { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    seed: { type: "string", default: "1000000" },
    runs: { type: "string", default: "50" },
    "pg-url": {
      type: "string",
      default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
    port: { type: "string", default: "3221" },
    "seeded-url": { type: "string" },
  },
});
const RUNS = Number(args.runs);
const USER = { email: "bench-owner@example.com", password: "bench-password-bench" };
const BENCH_AUTH_SECRET = "bench-auth-secret-bench-auth-secret-0001";
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(", ");

async function time(runs: number, work: () => Promise<unknown>): Promise<string> {
  for (let i = 0; i < 5; i++) await work(); // warm-up: prepared plans, caches
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return `p50 ${percentile(samples, 0.5).toFixed(1)} ms, p95 ${percentile(samples, 0.95).toFixed(1)} ms`;
}

/**
 * The session cookie a password sign-in would set, minted with the server's AUTH_SECRET: sign-in POSTs
 * go only through /login's throttled server actions, which a script cannot call.
 */
async function sessionCookie(userId: string): Promise<string> {
  const token = await encode({
    token: { sub: userId, email: USER.email },
    secret: BENCH_AUTH_SECRET,
    salt: "authjs.session-token",
  });
  return `authjs.session-token=${token}`;
}

async function httpTimes(origin: string, cookie: string, cases: PageCase[]) {
  for (const page of cases) {
    const figures = await time(RUNS, async () => {
      const response = await fetch(`${origin}${page.url}`, { headers: { cookie } });
      const html = await response.text();
      if (response.status !== 200 || !html.includes("</html>"))
        throw new Error(`${page.url} answered ${response.status}`);
    });
    console.log(`  GET ${page.url} (${page.label}): ${figures}`);
  }
}

interface Seeded extends SeededView {
  userId: string;
}

/** Deep cursor (~90% in) and a day inside the seed, from the data itself. */
async function views(handle: DbHandle, workspaceId: string) {
  const count = firstRow<{ n: number }>(
    await handle.db.execute(sql`select count(*)::int as n from email_messages where workspace_id = ${workspaceId}`),
  ).n;
  const deep = await handle.db.execute(
    sql`select id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day from email_messages where workspace_id = ${workspaceId} order by created_at desc, id desc offset ${Math.floor(count * 0.9)} limit 1`,
  );
  const row = firstRow<{ id: string; day: string }>(deep);
  return { count, deepCursor: row.id, day: row.day };
}

/** A workspace with `--seed` varied messages and their neighbours, three templates and an owner. */
async function seedWorkspace(handle: DbHandle): Promise<Seeded> {
  await migrateDatabase(handle);
  // The server's health check signs in with the bench key; at boot it seeds the demo only into an empty database.
  await seedDemo({ apiKey: BENCH_KEY });
  const workspace = await createWorkspace({ name: "Bench dashboard", testMode: false });
  await addDomain({ workspaceId: workspace.id, name: "example.com", verified: true });
  const templateIds: string[] = [];
  for (const name of ["Welcome", "Receipt", "Reset password"]) {
    templateIds.push(
      (await createTemplate({ workspaceId: workspace.id, name, subject: name, bodyHtml: `<p>${name}</p>` })).id,
    );
  }
  const workflowId = newId("workflow");
  await handle.db
    .insert(workflows)
    .values({ id: workflowId, workspaceId: workspace.id, name: "Welcome series", key: "welcome", steps: [] });
  const user = await createUser({ ...USER, workspaceId: workspace.id, role: "OWNER" });
  const endAt = new Date();
  const count = Number(args.seed);
  await seedMessages(handle, workspace.id, count, { varied: { templateIds }, endAt });
  await seedDashboardTables(handle, workspace.id, count, endAt, workflowId);
  return {
    workspaceId: workspace.id,
    userId: user.id,
    templateId: templateIds[1],
    ...(await views(handle, workspace.id)),
  };
}

/** The workspace an earlier run seeded and kept (--seeded-url). */
async function findSeeded(handle: DbHandle): Promise<Seeded> {
  await seedDemo({ apiKey: BENCH_KEY });
  const workspaceId = firstRow<{ id: string }>(
    await handle.db.execute(sql`select id from workspaces where name = 'Bench dashboard'`),
  ).id;
  const templateIds = (await listTemplateChoices(workspaceId)).map((template) => template.id).reverse();
  const userId = firstRow<{ id: string }>(
    await handle.db.execute(sql`select id from users where email = ${USER.email}`),
  ).id;
  return { workspaceId, userId, templateId: templateIds[1], ...(await views(handle, workspaceId)) };
}

/** The Overview's rollups against a direct count of the window (they must be equal), and what each costs. */
async function overviewCheck(handle: DbHandle, workspaceId: string) {
  const since = overviewSince(new Date());
  let started = performance.now();
  const direct = overviewFromRows(since, await overviewDirectQuery(handle.db, workspaceId, since));
  const directMs = performance.now() - started;
  started = performance.now();
  const rolled = await getOverview(workspaceId);
  const rolledMs = performance.now() - started;
  const equal = JSON.stringify(direct) === JSON.stringify(rolled);
  console.log(
    `Overview counts: ${rolled.messages.toLocaleString("en")} messages in the window; rollups ${rolledMs.toFixed(1)} ms, ` +
      `a direct count of email_messages ${directMs.toFixed(0)} ms (what the page did before); equal: ${equal}`,
  );
  if (!equal) throw new Error("the Overview's rollups differ from a direct count");
}

async function measure(url: string, handle: DbHandle, seeded: Seeded, dataDir: string) {
  const cases = dashboardCases(seeded);
  await overviewCheck(handle, seeded.workspaceId);
  console.log(
    `page data in-process (PostgreSQL, ${seeded.count.toLocaleString("en")} messages, ${RUNS} runs each after 5 warm-up runs; load average ${load()}):`,
  );
  for (const page of cases) console.log(`  ${page.label}: ${await time(RUNS, page.data)}`);
  if (args["no-http"]) return;
  build(args["skip-build"]!);
  const server = await startServer(Number(args.port), {
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    AUTH_SECRET: BENCH_AUTH_SECRET,
    RUN_WORKER: "false",
    APP_URL: `http://127.0.0.1:${args.port}`,
  });
  try {
    const origin = new URL(server.base).origin;
    const cookie = await sessionCookie(seeded.userId);
    console.log(
      `GET over HTTP with a session (next start on PostgreSQL, ${RUNS} sequential requests each; load average ${load()}):`,
    );
    await httpTimes(origin, cookie, cases);
  } finally {
    await server.stop();
  }
}

async function main() {
  const given = args["seeded-url"];
  const scratch = given ? null : await scratchPostgres(args["pg-url"]!);
  if (!given && !scratch) return;
  const url = given ?? scratch!.url;
  const dataDir = tempDir();
  console.log(`load average at the start: ${load()}`);
  try {
    const handle = await openPostgres(url, 4);
    installDbHandle(handle);
    const started = performance.now();
    const seeded = given ? await findSeeded(handle) : await seedWorkspace(handle);
    if (!given) console.log(`seeding took ${((performance.now() - started) / 1000).toFixed(0)} s in all`);
    await measure(url, handle, seeded, dataDir.dir);
  } finally {
    await closeDb();
    if (scratch && args.keep) console.log(`kept: re-measure with --seeded-url ${scratch.url}`);
    else await scratch?.drop();
    dataDir.remove();
  }
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
