/**
 * npm run bench:send [-- --count 300 --concurrency 8 --skip-build]
 *
 * Prints: build time, cold start (spawn → first answer, including migrations and the first-run seed),
 * and sends/s for a loop of single POST /api/v1/email_messages, sequential and concurrent, on PGlite
 * and on the PostgreSQL server (DATABASE_URL of the bench, default the local server), plus how long
 * the worker takes to deliver them all. A benchmark, not a test: figures vary with the machine.
 */
import { parseArgs } from "node:util";
import {
  BENCH_AUTH,
  build,
  percentile,
  scratchPostgres,
  seconds,
  sendBody,
  startServer,
  tempDir,
} from "./support/server";

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "300" },
    concurrency: { type: "string", default: "8" },
    "skip-build": { type: "boolean", default: false },
    "pg-url": {
      type: "string",
      default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
    port: { type: "string", default: "3210" },
  },
});
const COUNT = Number(args.count);
const CONCURRENCY = Number(args.concurrency);
const PORT = Number(args.port);
let BASE = "";

async function sendOnce(i: number): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${BASE}/email_messages`, {
    method: "POST",
    headers: { authorization: BENCH_AUTH, "content-type": "application/json" },
    body: JSON.stringify(sendBody(i)),
  });
  if (response.status !== 201) throw new Error(`send answered ${response.status}: ${await response.text()}`);
  return performance.now() - started;
}

async function loop(count: number, concurrency: number) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) latencies.push(await sendOnce(next++));
    }),
  );
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => percentile(latencies, p).toFixed(1);
  return `${(count / (elapsed / 1000)).toFixed(0)} sends/s (p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms)`;
}

async function drained(): Promise<number> {
  const started = performance.now();
  for (;;) {
    const response = await fetch(`${BASE}/email_messages?status=PENDING&limit=1`, {
      headers: { authorization: BENCH_AUTH },
    });
    const body = (await response.json()) as { data: unknown[] };
    if (body.data.length === 0) return performance.now() - started;
    if (performance.now() - started > 300_000) throw new Error("delivery did not drain in 5 minutes");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function benchmark(label: string, env: Record<string, string>) {
  const server = await startServer(PORT, env);
  const coldStartMs = server.coldStartMs;
  BASE = server.base;
  try {
    await loop(20, 1); // warm-up: JIT, caches, connection pools
    const sequential = await loop(COUNT, 1);
    const concurrent = await loop(COUNT, CONCURRENCY);
    const drainMs = await drained();
    console.log(`${label}: cold start ${seconds(coldStartMs)}`);
    console.log(`${label}: sequential ${sequential}`);
    console.log(`${label}: ${CONCURRENCY} concurrent ${concurrent}`);
    console.log(
      `${label}: ${COUNT * 2 + 20} messages delivered to the local inbox ${seconds(drainMs)} after the last send was accepted`,
    );
  } finally {
    await server.stop();
  }
}

async function main() {
  build(args["skip-build"]!);
  const embedded = tempDir();
  await benchmark("pglite", { DATA_DIR: embedded.dir });
  embedded.remove();

  const database = await scratchPostgres(args["pg-url"]!);
  if (!database) return;
  const dataDir = tempDir();
  try {
    await benchmark("postgres", { DATABASE_URL: database.url, DATA_DIR: dataDir.dir });
  } finally {
    await database.drop();
    dataDir.remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
