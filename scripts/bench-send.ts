/**
 * npm run bench:send [-- --count 300 --concurrency 8 --skip-build]
 *
 * Prints: build time, cold start (spawn → first answer, including migrations and the first-run seed),
 * and sends/s for a loop of single POST /api/v1/email_messages, sequential and concurrent, on PGlite
 * and on the PostgreSQL server (DATABASE_URL of the bench, default the local server), plus how long
 * the worker takes to deliver them all. A benchmark, not a test: figures vary with the machine.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "300" },
    concurrency: { type: "string", default: "8" },
    "skip-build": { type: "boolean", default: false },
    "pg-url": { type: "string", default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
    port: { type: "string", default: "3210" },
  },
});
const COUNT = Number(args.count);
const CONCURRENCY = Number(args.concurrency);
const PORT = Number(args.port);
const KEY = "key_BENCH00000000000:bench-secret-bench-secret-bench-secret";
const AUTH = `Basic ${Buffer.from(KEY).toString("base64")}`;
const BASE = `http://127.0.0.1:${PORT}/api/v1`;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function build() {
  if (args["skip-build"]) return console.log("build: skipped");
  const started = performance.now();
  const result = spawnSync("npx", ["next", "build"], { stdio: "ignore", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) throw new Error("next build failed");
  console.log(`build: ${seconds(performance.now() - started)}`);
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; coldStartMs: number }> {
  const started = performance.now();
  const child = spawn("node", ["node_modules/next/dist/bin/next", "start", "-p", String(PORT)], {
    env: { ...process.env, ...env, PORT: String(PORT), SEED_DEMO: "true", SEED_API_KEY: KEY, LOG_LEVEL: "warn", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${BASE}/email_messages?limit=1`, { headers: { authorization: AUTH } });
      if (response.status === 200) return { child, coldStartMs: performance.now() - started };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function sendOnce(i: number): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${BASE}/email_messages`, {
    method: "POST",
    headers: { authorization: AUTH, "content-type": "application/json" },
    body: JSON.stringify({
      from: "Bench <bench@example.com>",
      to: `Reader ${i} <reader${i}@example.org>`,
      subject: `Bench ${i}`,
      bodyHtml: `<p>Hello reader ${i}, <a href="https://example.com/${i}">open</a>.</p>`,
    }),
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
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))].toFixed(1);
  return `${(count / (elapsed / 1000)).toFixed(0)} sends/s (p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms)`;
}

async function drained(): Promise<number> {
  const started = performance.now();
  for (;;) {
    const response = await fetch(`${BASE}/email_messages?status=PENDING&limit=1`, { headers: { authorization: AUTH } });
    const body = (await response.json()) as { data: unknown[] };
    if (body.data.length === 0) return performance.now() - started;
    if (performance.now() - started > 300_000) throw new Error("delivery did not drain in 5 minutes");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function benchmark(label: string, env: Record<string, string>) {
  const { child, coldStartMs } = await startServer(env);
  try {
    await loop(20, 1); // warm-up: JIT, caches, connection pools
    const sequential = await loop(COUNT, 1);
    const concurrent = await loop(COUNT, CONCURRENCY);
    const drainMs = await drained();
    console.log(`${label}: cold start ${seconds(coldStartMs)}`);
    console.log(`${label}: sequential ${sequential}`);
    console.log(`${label}: ${CONCURRENCY} concurrent ${concurrent}`);
    console.log(`${label}: ${COUNT * 2 + 20} messages delivered to the local inbox ${seconds(drainMs)} after the last send was accepted`);
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
}

async function main() {
  build();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-bench-"));
  await benchmark("pglite", { DATA_DIR: dataDir });
  fs.rmSync(dataDir, { recursive: true, force: true });

  const name = `bench_${Date.now()}`;
  const admin = postgres(args["pg-url"]!, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } catch (error) {
    console.log(`postgres: skipped (${String(error)})`);
    await admin.end();
    return;
  }
  const url = new URL(args["pg-url"]!);
  url.pathname = `/${name}`;
  const pgDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-bench-"));
  try {
    await benchmark("postgres", { DATABASE_URL: url.toString(), DATA_DIR: pgDataDir });
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
    fs.rmSync(pgDataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
