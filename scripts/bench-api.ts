/**
 * npm run bench:api [-- --skip-build --seed 1000000 --duration 10]
 *
 * Starts the built app on the PostgreSQL server (a scratch database) and on PGlite, drives it with
 * autocannon on loopback and prints: single sends/s with p50/p99 at concurrency 64; messages/s
 * accepted through 1,000-message batches; list p95 on page 1 and at a deep cursor after seeding
 * messages with set-based SQL. On PostgreSQL the server runs with RUN_WORKER=false (as a web process
 * would, with workers elsewhere) so delivery does not compete for the two cores; PGlite always runs
 * its worker in-process. A benchmark, not a test.
 */
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { openPglite, openPostgres, type DbHandle } from "@/db/client";
import { BENCH_AUTH, BENCH_KEY_USERNAME, build, percentile, scratchPostgres, sendBody, startServer, tempDir } from "./bench/server";
import { firstRow, seedMessages } from "./bench/seed-messages";

const { values: args } = parseArgs({
  options: {
    "skip-build": { type: "boolean", default: false },
    seed: { type: "string", default: "1000000" },
    duration: { type: "string", default: "10" },
    "pg-url": { type: "string", default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
    port: { type: "string", default: "3220" },
    only: { type: "string" },
  },
});
const PORT = Number(args.port);
const DURATION = Number(args.duration);
const SEED = Number(args.seed);
const headers = { authorization: BENCH_AUTH, "content-type": "application/json" };

async function singleSends(base: string) {
  let i = 0;
  const result = await autocannon({
    url: `${base}/email_messages`,
    connections: 64,
    duration: DURATION,
    method: "POST",
    headers,
    setupClient: (client) => client.setBody(JSON.stringify(sendBody(i++))),
  });
  return `${result.requests.average.toFixed(0)} sends/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`;
}

async function batchSends(base: string) {
  const body = JSON.stringify({ emailMessages: Array.from({ length: 1000 }, (_, i) => sendBody(i)) });
  const result = await autocannon({ url: `${base}/batches`, connections: 2, duration: DURATION, method: "POST", headers, body });
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
  const rows = (await handle.db.execute(sql`select workspace_id from api_keys where id = ${BENCH_KEY_USERNAME}`)) as unknown;
  return seedMessages(handle, firstRow<{ workspace_id: string }>(rows).workspace_id, count);
}

async function benchmark(label: string, env: Record<string, string>, open: () => Promise<DbHandle>) {
  let server = await startServer(PORT, env);
  try {
    await singleSends(server.base); // warm-up pass, not reported
    console.log(`${label}: single sends at concurrency 64: ${await singleSends(server.base)}`);
    console.log(`${label}: batches: ${await batchSends(server.base)}`);
  } finally {
    await server.stop();
  }
  const handle = await open();
  const deepCursor = await seedBenchWorkspace(handle, SEED);
  await handle.close();
  server = await startServer(PORT, env);
  try {
    await listLatency(server.base, "limit=50", 100);
    console.log(`${label}: list page 1: ${await listLatency(server.base, "limit=50")}`);
    console.log(`${label}: list at a deep cursor (~${Math.floor(SEED * 0.9).toLocaleString("en")} rows in): ${await listLatency(server.base, `limit=50&cursor.after=${deepCursor}`)}`);
  } finally {
    await server.stop();
  }
}

async function main() {
  build(args["skip-build"]!);
  if (args.only !== "pglite") {
    const database = await scratchPostgres(args["pg-url"]!);
    if (database) {
      const dataDir = tempDir();
      try {
        await benchmark("postgres", { DATABASE_URL: database.url, DATA_DIR: dataDir.dir, RUN_WORKER: "false" }, () => openPostgres(database.url, 2));
      } finally {
        await database.drop();
        dataDir.remove();
      }
    }
  }
  if (args.only !== "postgres") {
    const embedded = tempDir();
    try {
      await benchmark("pglite", { DATA_DIR: embedded.dir }, () => openPglite(`${embedded.dir}/pglite`));
    } finally {
      embedded.remove();
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
