/**
 * npm run bench:dashboard [-- --skip-build --seed 1000000 --runs 50 --no-http]
 *
 * The Emails page's server time with 1,000,000 messages in the workspace, on a scratch database of
 * the PostgreSQL server. Seeds varied messages (statuses, sources, templates, batches, metaIds,
 * recipients) with the bench seed, then times the page's data calls (listDashboardMessages and
 * listTemplateChoices, as app/(dashboard)/emails/page.tsx makes them) in-process: p50/p95 over
 * `--runs` runs each for the first page, a deep cursor and filtered pages. Then starts the built app
 * on the same database, signs in through Auth.js and times real GETs of /emails with the session
 * cookie. A benchmark, not a test: it prints figures.
 */
import { parseArgs } from "node:util";
import { installDbHandle, openPostgres } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { addDomain } from "@/lib/domains/add-domain";
import { listDashboardMessages, listTemplateChoices } from "@/lib/messages/list-dashboard-messages";
import { createTemplate } from "@/lib/templates/create-template";
import { createUser } from "@/lib/users/create-user";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import { build, percentile, scratchPostgres, startServer, tempDir } from "./bench/server";
import { seedMessages } from "./bench/seed-messages";

const { values: args } = parseArgs({
  options: {
    "skip-build": { type: "boolean", default: false },
    "no-http": { type: "boolean", default: false },
    seed: { type: "string", default: "1000000" },
    runs: { type: "string", default: "50" },
    "pg-url": { type: "string", default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
    port: { type: "string", default: "3221" },
  },
});
const RUNS = Number(args.runs);
const USER = { email: "bench-owner@example.com", password: "bench-password-bench" };

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
    const [result] = await Promise.all([listDashboardMessages(workspaceId, new URLSearchParams(query)), listTemplateChoices(workspaceId)]);
    if (!result.ok) throw new Error(`${result.param}: ${result.message}`);
    if (result.page.rows.length === 0 && !query.metaId?.startsWith("none")) throw new Error(`no rows for ${JSON.stringify(query)}`);
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
    ["metaId (4 rows)", { metaId: "order-1234" }],
    ["one day (createdFrom = createdTo)", { createdFrom: "2025-12-31", createdTo: "2025-12-31" }],
    ["status=DELETED (0.1%) + one day", { status: "DELETED", createdFrom: "2025-12-31", createdTo: "2025-12-31" }],
  ];
}

async function signIn(origin: string): Promise<string> {
  const csrf = await fetch(`${origin}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookies = csrf.headers.getSetCookie().map((cookie) => cookie.split(";")[0]);
  const body = new URLSearchParams({ csrfToken, email: USER.email, password: USER.password, callbackUrl: `${origin}/emails` });
  const response = await fetch(`${origin}/api/auth/callback/password`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies.join("; ") },
    body,
  });
  const session = response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).find((cookie) => cookie.startsWith("authjs.session-token="));
  if (!session) throw new Error(`sign-in failed (${response.status})`);
  return session;
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

async function main() {
  const database = await scratchPostgres(args["pg-url"]!);
  if (!database) return;
  const dataDir = tempDir();
  try {
    const handle = await openPostgres(database.url, 4);
    installDbHandle(handle);
    await migrateDatabase(handle);
    const workspace = await createWorkspace({ name: "Bench dashboard", testMode: false });
    await addDomain({ workspaceId: workspace.id, name: "example.com", verified: true });
    const templateIds: string[] = [];
    for (const name of ["Welcome", "Receipt", "Reset password"]) {
      templateIds.push((await createTemplate({ workspaceId: workspace.id, name, subject: name, bodyHtml: `<p>${name}</p>` })).id);
    }
    await createUser({ ...USER, workspaceId: workspace.id, role: "OWNER" });
    const deepCursor = await seedMessages(handle, workspace.id, Number(args.seed), { varied: { templateIds } });
    const all = cases(deepCursor, templateIds[1]);

    console.log(`page data in-process (PostgreSQL, ${RUNS} runs each after 5 warm-up runs):`);
    for (const [label, query] of all) console.log(`  ${label}: ${await time(RUNS, pageData(workspace.id, query))}`);

    if (args["no-http"]) return;
    build(args["skip-build"]!);
    const server = await startServer(Number(args.port), { DATABASE_URL: database.url, DATA_DIR: dataDir.dir, RUN_WORKER: "false", APP_URL: `http://127.0.0.1:${args.port}` });
    try {
      const origin = new URL(server.base).origin;
      const cookie = await signIn(origin);
      console.log(`GET /emails over HTTP with a session (next start on PostgreSQL, ${RUNS} sequential requests each):`);
      await httpTimes(origin, cookie, [all[0], all[1], all[2], all[6], all[7]]);
    } finally {
      await server.stop();
    }
  } finally {
    await (await import("@/db/client")).closeDb();
    await database.drop();
    dataDir.remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
