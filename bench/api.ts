/**
 * npm run bench:api [-- --skip-build --seed 1000000 --duration 10 --only postgres|pglite --apps 2 --log-statements]
 *
 * Starts the built app on the PostgreSQL server (a scratch database) and on PGlite and drives it with
 * autocannon at 64 connections on loopback, side by side in one run: the framework's floor (Next.js's
 * JSON 404 of an unknown /api/v1 path, through its routing: THROUGH_NEXT), the same 404 from the
 * router the API takes (lib/entry/http/node-door.ts; not the floor), single sends, `GET /v1/email_messages?limit=50` and
 * `GET /v1/email_messages/:id`, each with p50/p99 and its share of the floor; the CPU per accepted
 * send of the app's process tree and of the database's backends (from /proc: the machine is shared,
 * so rates move with its load and the CPU figures are the ones to compare); then messages/s through
 * 1,000-message batches and list latency at a deep cursor after seeding `--seed` messages with
 * set-based SQL (0 skips it). On PostgreSQL the server runs with RUN_WORKER=false (a web process, the
 * workers elsewhere); PGlite always runs its worker in-process. `--apps 2` adds a run of two app
 * processes against the one PostgreSQL database (the database CPU per send should not grow);
 * `--log-statements` prints the statements PostgreSQL ran per send. On PGlite, `--burst N` (default 5,000; 0 skips)
 * then times reads while the in-process worker drains a burst of N sends (bench/support/embedded-burst.ts);
 * `--burst-only` runs only that. `--tracing [--rounds N]` runs only the cost of OpenTelemetry traces per send: off, on
 * with sampling 1.0 and with 0.01, the app and a worker on PostgreSQL (bench/support/tracing-cost.ts). A benchmark, not
 * a test.
 */
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import postgres from "postgres";
import { sql } from "drizzle-orm";
import { openPglite, openPostgres, type DbHandle } from "@/db/client";
import {
  BENCH_AUTH,
  BENCH_KEY_USERNAME,
  build,
  percentile,
  scratchPostgres,
  sendBody,
  startServer,
  tempDir,
  THROUGH_NEXT,
  type RunningServer,
} from "./support/server";
import { firstRow, seedMessages } from "./support/seed-messages";
import { cpuSnapshot, loadAverage } from "./support/proc-cpu";
import { logSize, printStatements, statementsBetween } from "./support/pg-log";
import { tracingCost } from "./support/tracing-cost";
import { BURST_AUTH_SECRET, BURST_METRICS_TOKEN, burstThenReads, dashboardCookie } from "./support/embedded-burst";

const { values: args } = parseArgs({
  options: {
    "skip-build": { type: "boolean", default: false },
    seed: { type: "string", default: "1000000" },
    duration: { type: "string", default: "10" },
    "pg-url": {
      type: "string",
      default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
    port: { type: "string", default: "3220" },
    only: { type: "string" },
    apps: { type: "string", default: "1" },
    "log-statements": { type: "boolean", default: false },
    burst: { type: "string", default: "5000" },
    "burst-only": { type: "boolean", default: false },
    tracing: { type: "boolean", default: false },
    rounds: { type: "string", default: "2" },
  },
});
const PORT = Number(args.port);
const DURATION = Number(args.duration);
const SEED = Number(args.seed);
const CONNECTIONS = 64;
const headers = { authorization: BENCH_AUTH, "content-type": "application/json" };

interface Load {
  rate: number;
  ok: number;
  p50: number;
  p99: number;
  bad: number;
  timeouts: number;
}

/** 64 connections spread over the servers' bases for DURATION seconds; `ok` counts the expected status. */
async function drive(
  bases: string[],
  path: string,
  options: {
    method?: "GET" | "POST";
    body?: (i: number) => string;
    duration?: number;
    headers?: Record<string, string>;
  } = {},
): Promise<Load> {
  let i = 0;
  const results = await Promise.all(
    bases.map((base) =>
      autocannon({
        url: `${base}${path}`,
        connections: CONNECTIONS / bases.length,
        duration: options.duration ?? DURATION,
        method: options.method ?? "GET",
        headers: { ...headers, ...options.headers },
        setupClient: options.body ? (client) => client.setBody(options.body!(i++)) : undefined,
      }),
    ),
  );
  const sum = (pick: (r: autocannon.Result) => number) => results.reduce((total, r) => total + pick(r), 0);
  const seconds = options.duration ?? DURATION;
  return {
    rate: sum((r) => r.requests.total) / seconds,
    ok: sum((r) => r["2xx"]) + (path.startsWith("/unknown") ? sum((r) => r.non2xx) : 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    bad: path.startsWith("/unknown") ? 0 : sum((r) => r.non2xx),
    timeouts: sum((r) => r.timeouts),
  };
}

const line = (label: string, load: Load, floor: Load | null, unit = "req/s") =>
  `${label.padEnd(34)} ${load.rate.toFixed(0).padStart(6)} ${unit}, p50 ${load.p50} ms, p99 ${load.p99} ms` +
  (floor ? `, ${((load.rate / floor.rate) * 100).toFixed(0)} % of the floor` : "") +
  (load.bad || load.timeouts ? ` (non-2xx ${load.bad}, timeouts ${load.timeouts})` : "");

const sendRequest = (i: number) => JSON.stringify(sendBody(i));

/** The floor, then sends with the CPU they cost, then the two reads: one run, side by side. */
async function requestPath(label: string, servers: RunningServer[], database: string | null, databaseUrl?: string) {
  const bases = servers.map((server) => server.base);
  await drive(bases, "/email_messages", { method: "POST", body: sendRequest, duration: 3 }); // warm-up, not reported
  await drive(bases, "/unknown-path", { duration: 2, headers: THROUGH_NEXT });
  await drive(bases, "/unknown-path", { duration: 2 });
  await drive(bases, "/email_messages?limit=50", { duration: 2 });
  const pids = servers.map((server) => server.pid);
  // The app's CPU per 404 through each door: what Next.js's routing costs a request, load-independent.
  const appCpuPerRequest = async (headers?: Record<string, string>) => {
    const before = cpuSnapshot(pids, null).app;
    const load = await drive(bases, "/unknown-path", { headers });
    return { load, cpu: `${(((cpuSnapshot(pids, null).app - before) / load.ok) * 1000).toFixed(2)} ms` };
  };
  const { load: floor, cpu: floorCpu } = await appCpuPerRequest(THROUGH_NEXT);
  const { load: direct404, cpu: direct404Cpu } = await appCpuPerRequest();
  const idle = await idleCpuPerSecond(pids, database);
  const before = cpuSnapshot(pids, database);
  const started = performance.now();
  const sends = await drive(bases, "/email_messages", { method: "POST", body: sendRequest });
  const after = cpuSnapshot(pids, database);
  const seconds = (performance.now() - started) / 1000;
  // The sends grew email_messages from nothing in seconds; PostgreSQL's autovacuum analyzes such a
  // table within its minute (PGlite's stand-in, lib/entry/worker/embedded-autovacuum.ts, within 10 s). Until
  // then the planner takes it for empty and sorts the workspace for a page: not what a running
  // instance sees.
  if (databaseUrl) await analyze(databaseUrl);
  const { load: list, cpu: listCpu } = await cpuPerRequest(pids, database, () =>
    drive(bases, "/email_messages?limit=50"),
  );
  const id = await lastMessageId(bases[0]);
  const { load: get, cpu: getCpu } = await cpuPerRequest(pids, database, () => drive(bases, `/email_messages/${id}`));
  // What the processes spend with no request (timers, the pool's keep-alive) is not the sends': at a
  // low rate on a loaded machine it would otherwise inflate the figure.
  const perSend = (cpu: number, idlePerSecond: number) =>
    `${(((cpu - idlePerSecond * seconds) / sends.ok) * 1000).toFixed(2)} ms`;
  console.log(`${label}: load average ${loadAverage()} (1/5/15 min), ${CONNECTIONS} connections, ${DURATION} s each`);
  console.log(`  ${line("floor (Next.js's JSON 404)", floor, null)}; app CPU ${floorCpu} per request`);
  console.log(`  ${line("same 404, direct (not the floor)", direct404, floor)}; app CPU ${direct404Cpu} per request`);
  console.log(`  ${line("POST /v1/email_messages", sends, floor, "sends/s")}`);
  console.log(`  ${line("GET /v1/email_messages?limit=50", list, floor)}; CPU per request ${listCpu}`);
  console.log(`  ${line("GET /v1/email_messages/:id", get, floor)}; CPU per request ${getCpu}`);
  console.log(
    `  CPU per accepted send: app ${perSend(after.app - before.app, idle.app)}` +
      (database
        ? `, PostgreSQL backends ${perSend(after.db - before.db, idle.db)}`
        : " (PGlite: the database is inside the app)") +
      ` (idle CPU subtracted: app ${(idle.app * 1000).toFixed(0)} ms/s` +
      (database ? `, PostgreSQL ${(idle.db * 1000).toFixed(0)} ms/s)` : ")"),
  );
}

/** A read's load and what each answered request cost the app and the database (idle CPU not subtracted: reads run at hundreds per second). */
async function cpuPerRequest(
  pids: number[],
  database: string | null,
  run: () => Promise<Load>,
): Promise<{ load: Load; cpu: string }> {
  const before = cpuSnapshot(pids, database);
  const load = await run();
  const after = cpuSnapshot(pids, database);
  const ms = (seconds: number) => `${((seconds / load.ok) * 1000).toFixed(2)} ms`;
  return {
    load,
    cpu: `app ${ms(after.app - before.app)}` + (database ? `, PostgreSQL ${ms(after.db - before.db)}` : ""),
  };
}

async function analyze(url: string) {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  await client`analyze`;
  await client.end();
}

/** CPU seconds per second the app and the database spend with no request, over 3 s. */
async function idleCpuPerSecond(pids: number[], database: string | null): Promise<{ app: number; db: number }> {
  const before = cpuSnapshot(pids, database);
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const after = cpuSnapshot(pids, database);
  const seconds = (performance.now() - started) / 1000;
  return { app: (after.app - before.app) / seconds, db: (after.db - before.db) / seconds };
}

async function lastMessageId(base: string): Promise<string> {
  const response = await fetch(`${base}/email_messages?limit=1`, { headers });
  const page = (await response.json()) as { data: Array<{ id: string }> };
  return page.data[0].id;
}

/** Sends one at a time with every statement logged, then the statements per send by text. */
async function statementsPerSend(server: RunningServer, database: string, adminUrl: string) {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`alter database ${database} set log_min_duration_statement = 0`);
  await admin.end();
  // New connections pick the setting up: the pool's are replaced by restarting the server.
  await server.stop();
  const restarted = await startServer(PORT, server.env);
  try {
    const count = 200;
    for (let i = 0; i < 20; i++) await post(restarted.base, i);
    const start = logSize();
    for (let i = 0; i < count; i++) await post(restarted.base, i);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the activity log's batch
    printStatements("PostgreSQL statements per single send", statementsBetween(start, logSize(), database), count);
  } finally {
    await restarted.stop();
  }
}

async function post(base: string, i: number) {
  const response = await fetch(`${base}/email_messages`, { method: "POST", headers, body: sendRequest(i) });
  if (response.status !== 201) throw new Error(`send answered ${response.status}: ${await response.text()}`);
}

async function batchSends(base: string) {
  const body = JSON.stringify({ emailMessages: Array.from({ length: 1000 }, (_, i) => sendBody(i)) });
  const result = await autocannon({
    url: `${base}/batches`,
    connections: 2,
    duration: DURATION,
    method: "POST",
    headers,
    body,
  });
  const accepted = result["2xx"] * 1000;
  return `${(accepted / DURATION).toFixed(0)} messages/s in 1,000-message batches (p50 ${result.latency.p50} ms per batch, non-2xx ${result.non2xx})`;
}

async function listLatency(base: string, query: string, requests = 400, concurrency = 4) {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < requests) {
        const started = performance.now();
        const response = await fetch(`${base}/email_messages?${query}`, { headers });
        if (response.status !== 200) throw new Error(`list answered ${response.status}`);
        await response.arrayBuffer();
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return `p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p95 ${percentile(latencies, 0.95).toFixed(1)} ms`;
}

/** The bench key's workspace, seeded straight into the database (server stopped for PGlite: it has one owner). */
async function seedBenchWorkspace(handle: DbHandle, count: number): Promise<string> {
  const rows = (await handle.db.execute(
    sql`select workspace_id from api_keys where id = ${BENCH_KEY_USERNAME}`,
  )) as unknown;
  return seedMessages(handle, firstRow<{ workspace_id: string }>(rows).workspace_id, count);
}

async function benchmark(
  label: string,
  env: Record<string, string>,
  open: () => Promise<DbHandle>,
  database: string | null,
) {
  let server = await startServer(PORT, env);
  try {
    await requestPath(label, [server], database, env.DATABASE_URL);
    console.log(`${label}: batches: ${await batchSends(server.base)}`);
  } finally {
    await server.stop();
  }
  if (database && Number(args.apps) > 1) {
    const servers = await Promise.all(
      Array.from({ length: Number(args.apps) }, (_, n) => startServer(PORT + 1 + n, env)),
    );
    try {
      await requestPath(
        `${label}, ${servers.length} app processes on one database`,
        servers,
        database,
        env.DATABASE_URL,
      );
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }
  if (database && args["log-statements"])
    await statementsPerSend(await startServer(PORT, env), database, args["pg-url"]!);
  if (SEED <= 0) return;
  const handle = await open();
  const deepCursor = await seedBenchWorkspace(handle, SEED);
  await handle.close();
  server = await startServer(PORT, env);
  try {
    await listLatency(server.base, "limit=50", 100);
    console.log(`${label}: list page 1: ${await listLatency(server.base, "limit=50")}`);
    console.log(
      `${label}: list at a deep cursor (~${Math.floor(SEED * 0.9).toLocaleString("en")} rows in): ${await listLatency(server.base, `limit=50&cursor.after=${deepCursor}`)}`,
    );
  } finally {
    await server.stop();
  }
}

async function main() {
  build(args["skip-build"]!);
  if (args.tracing) {
    const options = { pgUrl: args["pg-url"]!, port: PORT, duration: DURATION, rounds: Number(args.rounds) };
    return tracingCost(options);
  }
  if (args.only !== "pglite") {
    const database = await scratchPostgres(args["pg-url"]!);
    if (database) {
      const dataDir = tempDir();
      try {
        const env = { DATABASE_URL: database.url, DATA_DIR: dataDir.dir, RUN_WORKER: "false" };
        await benchmark("postgres", env, () => openPostgres(database.url, 2), database.name);
      } finally {
        await database.drop();
        dataDir.remove();
      }
    }
  }
  if (args.only !== "postgres" && !args["burst-only"]) {
    const embedded = tempDir();
    try {
      await benchmark("pglite", { DATA_DIR: embedded.dir }, () => openPglite(`${embedded.dir}/pglite`), null);
    } finally {
      embedded.remove();
    }
  }
  if (args.only !== "postgres" && Number(args.burst) > 0) await embeddedBurst();
}

/** A fresh embedded instance with a dashboard owner, warmed up, then the burst (bench/support/embedded-burst.ts). */
async function embeddedBurst() {
  const embedded = tempDir();
  try {
    const env = { DATA_DIR: embedded.dir, AUTH_SECRET: BURST_AUTH_SECRET, METRICS_TOKEN: BURST_METRICS_TOKEN };
    await (await startServer(PORT, env)).stop(); // first boot: migrations and the seeded bench key
    const handle = await openPglite(`${embedded.dir}/pglite`);
    const cookie = await dashboardCookie(handle);
    await handle.close();
    const server = await startServer(PORT, env);
    try {
      // Warm-up: plans, caches, the worker's first batches, the dashboard page's first render.
      for (let i = 0; i < 50; i++) await post(server.base, i);
      for (let i = 0; i < 3; i++)
        await fetch(`${server.base.replace(/\/api\/v1$/, "")}/emails`, { headers: { cookie } });
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await burstThenReads("pglite", server, cookie, Number(args.burst));
    } finally {
      await server.stop();
    }
  } finally {
    embedded.remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
