/**
 * npm run bench:dashboard [-- --skip-build --seed 1000000 --runs 50 --no-http --seeded-url URL]
 *
 * The Emails page's server time with 1,000,000 messages in the workspace, on a scratch database of
 * the PostgreSQL server. Seeds varied messages (statuses, sources, templates, batches, metaIds,
 * recipients) with the bench seed, then times the page's data calls (listDashboardMessages and
 * listTemplateChoices, as app/(dashboard)/emails/page.tsx makes them) in-process: p50/p95 over
 * `--runs` runs each for the first page, a deep cursor and filtered pages. Then starts the built app
 * on the same database, signs in through Auth.js and times real GETs of /emails with the session
 * cookie. A benchmark, not a test: it prints figures. `--seeded-url` re-measures a database an
 * earlier run seeded (kept, not dropped) instead of seeding a new one.
 */
import { parseArgs } from "node:util";
import { closeDb, installDbHandle, openPostgres } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { addDomain } from "@/lib/domains/add-domain";
import { parseEmailListSearch } from "@/lib/messages/email-list-search";
import { listDashboardMessages, listTemplateChoices } from "@/lib/messages/list-dashboard-messages";
import { createTemplate } from "@/lib/templates/create-template";
import { createUser } from "@/lib/users/create-user";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import { seedDemo } from "@/lib/setup/seed-demo";
import { sql } from "drizzle-orm";
import type { DbHandle } from "@/db/client";
import { BENCH_KEY, build, percentile, scratchPostgres, startServer, tempDir } from "./bench/server";
import { firstRow, seedMessages } from "./bench/seed-messages";
import { encode } from "next-auth/jwt";

const { values: args } = parseArgs({
  options: {
    "skip-build": { type: "boolean", default: false },
    "no-http": { type: "boolean", default: false },
    seed: { type: "string", default: "1000000" },
    runs: { type: "string", default: "50" },
    "pg-url": { type: "string", default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
    port: { type: "string", default: "3221" },
    "seeded-url": { type: "string" },
  },
});
const RUNS = Number(args.runs);
const USER = { email: "bench-owner@example.com", password: "bench-password-bench" };
const BENCH_AUTH_SECRET = "bench-auth-secret-bench-auth-secret-0001";

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

/** What the page does for its data: the rows and the template choices, in parallel. */
function pageData(workspaceId: string, query: Record<string, string>) {
  return async () => {
    const parsed = parseEmailListSearch(new URLSearchParams(query));
    const [result] = await Promise.all([parsed.ok ? listDashboardMessages(workspaceId, parsed.query) : parsed, listTemplateChoices(workspaceId)]);
    if (!result.ok) throw new Error(`${result.param}: ${result.message}`);
    if (result.page.rows.length === 0) throw new Error(`no rows for ${JSON.stringify(query)}`);
  };
}

function cases(deepCursor: string, templateId: string): [string, Record<string, string>][] {
  return [
    ["first page (50 rows)", {}],
    [`deep cursor (~${Math.floor(Number(args.seed) * 0.9).toLocaleString("en")} rows in)`, { "cursor.after": deepCursor }],
    ["status=FAILED (1%)", { status: "FAILED" }],
    ["status=FAILED, deep cursor", { status: "FAILED", "cursor.after": deepCursor }],
    ["source=BATCH (~9%)", { source: "BATCH" }],
    ["mode=sandbox (2%)", { mode: "sandbox" }],
    ["templateId (~7%)", { templateId }],
    ["recipient (0.1%)", { to: "user7@example.org" }],
    ["metaId (4 rows)", { metaId: `order-${Math.floor(Number(args.seed) / 8)}` }],
    ["one day (createdFrom = createdTo)", { createdFrom: "2025-12-31", createdTo: "2025-12-31" }],
    ["status=DELETED (0.1%) + one day", { status: "DELETED", createdFrom: "2025-12-31", createdTo: "2025-12-31" }],
  ];
}

/**
 * The session cookie a password sign-in would set, minted with the server's AUTH_SECRET: sign-in POSTs
 * go only through /login's throttled server actions, which a script cannot call.
 */
async function sessionCookie(userId: string): Promise<string> {
  const token = await encode({ token: { sub: userId, email: USER.email }, secret: BENCH_AUTH_SECRET, salt: "authjs.session-token" });
  return `authjs.session-token=${token}`;
}

async function httpTimes(origin: string, cookie: string, queries: [string, Record<string, string>][]) {
  for (const [label, query] of queries) {
    const figures = await time(RUNS, async () => {
      const response = await fetch(`${origin}/emails?${new URLSearchParams(query)}`, { headers: { cookie } });
      const html = await response.text();
      if (response.status !== 200 || !html.includes('data-testid="email-row"')) throw new Error(`/emails answered ${response.status}`);
    });
    console.log(`  GET /emails ${label}: ${figures}`);
  }
}

interface Seeded {
  workspaceId: string;
  userId: string;
  templateIds: string[];
  deepCursor: string;
}

/** A workspace with 1,000,000 varied messages, three templates and a signed-in-able owner. */
async function seedWorkspace(handle: DbHandle): Promise<Seeded> {
  await migrateDatabase(handle);
  // The server's health check signs in with the bench key; at boot it seeds the demo only into an empty database.
  await seedDemo({ apiKey: BENCH_KEY });
  const workspace = await createWorkspace({ name: "Bench dashboard", testMode: false });
  await addDomain({ workspaceId: workspace.id, name: "example.com", verified: true });
  const templateIds: string[] = [];
  for (const name of ["Welcome", "Receipt", "Reset password"]) {
    templateIds.push((await createTemplate({ workspaceId: workspace.id, name, subject: name, bodyHtml: `<p>${name}</p>` })).id);
  }
  const user = await createUser({ ...USER, workspaceId: workspace.id, role: "OWNER" });
  const deepCursor = await seedMessages(handle, workspace.id, Number(args.seed), { varied: { templateIds } });
  return { workspaceId: workspace.id, userId: user.id, templateIds, deepCursor };
}

/** The workspace an earlier run seeded (--seeded-url). */
async function findSeeded(handle: DbHandle): Promise<Seeded> {
  await seedDemo({ apiKey: BENCH_KEY });
  const rows = await handle.db.execute(sql`select id from workspaces where name = 'Bench dashboard'`);
  const workspaceId = firstRow<{ id: string }>(rows).id;
  const templateIds = (await listTemplateChoices(workspaceId)).map((template) => template.id).reverse();
  const count = firstRow<{ n: number }>(await handle.db.execute(sql`select count(*)::int as n from email_messages where workspace_id = ${workspaceId}`)).n;
  const deep = await handle.db.execute(
    sql`select id from email_messages where workspace_id = ${workspaceId} order by created_at desc, id desc offset ${Math.floor(count * 0.9)} limit 1`,
  );
  const userId = firstRow<{ id: string }>(await handle.db.execute(sql`select id from users where email = ${USER.email}`)).id;
  return { workspaceId, userId, templateIds, deepCursor: firstRow<{ id: string }>(deep).id };
}

async function measure(url: string, handle: DbHandle, seeded: Seeded, dataDir: string) {
  const all = cases(seeded.deepCursor, seeded.templateIds[1]);
  console.log(`page data in-process (PostgreSQL, ${RUNS} runs each after 5 warm-up runs):`);
  for (const [label, query] of all) console.log(`  ${label}: ${await time(RUNS, pageData(seeded.workspaceId, query))}`);
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
    console.log(`GET /emails over HTTP with a session (next start on PostgreSQL, ${RUNS} sequential requests each):`);
    await httpTimes(origin, cookie, [all[0], all[1], all[2], all[6], all[7]]);
  } finally {
    await server.stop();
  }
}

async function main() {
  const given = args["seeded-url"];
  const database = given ? { url: given, drop: async () => {} } : await scratchPostgres(args["pg-url"]!);
  if (!database) return;
  const dataDir = tempDir();
  try {
    const handle = await openPostgres(database.url, 4);
    installDbHandle(handle);
    const seeded = given ? await findSeeded(handle) : await seedWorkspace(handle);
    await measure(database.url, handle, seeded, dataDir.dir);
  } finally {
    await closeDb();
    await database.drop();
    dataDir.remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
