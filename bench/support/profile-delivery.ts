/**
 * tsx --conditions=react-server bench/support/profile-delivery.ts [--count 3000] [--workers 1] [--cpu-prof] [--log-statements] [--explain]
 *
 * A profiling aid for bench:delivery, not a benchmark of its own: accepts N messages on a scratch
 * PostgreSQL database with no worker running, then starts `--workers` worker processes and prints the
 * delivery time, the CPU seconds the workers and the database backends spent per message, and (with
 * --log-statements) the statements per message the server logged for that database, grouped by text.
 * --cpu-prof writes the workers' V8 profiles to /tmp/postwerk-prof.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import { parseArgs } from "node:util";
import { closeDb, getDbHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { sendBatch } from "@/lib/sending/send-batch";
import { resetEnvForTests } from "@/lib/foundation/env";
import { getQueue, stopQueue } from "@/lib/records/queue/queue";
import { setLogLevel } from "@/lib/foundation/log";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { cpuOf, descendants } from "./proc-cpu";
import { PG_LOG, statementsBetween } from "./pg-log";
import { exitOf, startWorkerProcess, type WorkerProcess } from "@/lib/testing/worker-process";
import postgres from "postgres";
import { startRelaySink } from "./relay-sink";
import { scratchPostgres, seconds, tempDir } from "./server";

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "3000" },
    workers: { type: "string", default: "1" },
    "cpu-prof": { type: "boolean", default: false },
    "log-statements": { type: "boolean", default: false },
    explain: { type: "boolean", default: false },
    "accept-only": { type: "boolean", default: false },
    "end-to-end": { type: "boolean", default: false },
    "pg-url": {
      type: "string",
      default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
  },
});
const COUNT = Number(args.count);
/** The worker under node --cpu-prof (not allowed in NODE_OPTIONS), with tsx as an import hook. */
function profiledWorker(env: Record<string, string>): WorkerProcess {
  const child = spawn(
    process.execPath,
    [
      "--cpu-prof",
      "--cpu-prof-dir=/tmp/postwerk-prof",
      "--conditions=react-server",
      "--import",
      "tsx",
      "lib/entry/worker/worker-main.ts",
    ],
    { env: { ...process.env, ...env }, stdio: "pipe" },
  );
  let stdout = "";
  const started = new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      stdout += chunk;
      if (stdout.includes('"workers started"')) resolve();
    });
    child.stderr!.on("data", (chunk) => process.stderr.write(chunk));
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}`)));
  });
  return {
    child,
    started,
    lines: () => [],
    stderr: () => "",
    stop: async () => {
      child.kill("SIGTERM");
      return exitOf(child);
    },
  };
}

async function main(): Promise<void> {
  const sink = await startRelaySink();
  const database = await scratchPostgres(args["pg-url"]!);
  if (!database) throw new Error("no PostgreSQL");
  const name = new URL(database.url).pathname.slice(1);
  const dataDir = tempDir();
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    DATA_DIR: dataDir.dir,
    DELIVERY_PROVIDER: "smtp",
    SMTP_URL: sink.url,
    LOG_LEVEL: "warn",
    RATE_LIMIT_PER_SECOND: "0",
  });
  resetEnvForTests();
  setLogLevel("warn");
  const admin = postgres(args["pg-url"]!, { max: 1, onnotice: () => {} });
  const workers: WorkerProcess[] = [];
  try {
    await migrateDatabase(await getDbHandle());
    await getQueue();
    const { workspace } = await createTestWorkspace({ name: "Profile" });
    if (args.explain) {
      // Plans of statements over 5 ms go to the server log (auto_explain, loaded per session).
      await admin.unsafe(`alter database ${name} set session_preload_libraries = 'auto_explain'`);
      await admin.unsafe(`alter database ${name} set auto_explain.log_min_duration = 5`);
      await admin.unsafe(`alter database ${name} set auto_explain.log_analyze = on`);
    }
    if (args["log-statements"] || args.explain) {
      if (args["log-statements"]) await admin.unsafe(`alter database ${name} set log_min_duration_statement = 0`);
      await stopQueue();
      await closeDb(); // new connections take the setting
      await getQueue();
    }
    const isBackend = (cmdline: string) => cmdline.includes(`postgres: 15/main: postgres ${name} `);
    const acceptPg0 = cpuOf(isBackend);
    const acceptCpu = process.cpuUsage();
    const logStart = fs.statSync(PG_LOG).size;
    if (args["end-to-end"]) {
      const env = { DATABASE_URL: database.url, DATA_DIR: dataDir.dir, LOG_LEVEL: "info" };
      for (let i = 0; i < Number(args.workers); i++) workers.push(startWorkerProcess(env));
      await Promise.all(workers.map((worker) => worker.started));
      const t0 = performance.now();
      console.log(`t0 = ${new Date().toISOString()}`);
      const timer = setInterval(
        () => console.log(`${((performance.now() - t0) / 1000).toFixed(1)} s: sink ${sink.received()}`),
        1000,
      );
      void sink.waitForMessages(COUNT, 600_000).then(() => {
        clearInterval(timer);
        console.log(`end to end ${COUNT} in ${seconds(performance.now() - t0)}`);
      });
    }
    const acceptStarted = performance.now();
    for (let start = 0; start < COUNT; start += 1000) {
      const emailMessages = Array.from({ length: Math.min(1000, COUNT - start) }, (_, i) => ({
        from: "Bench <bench@example.com>",
        to: `Reader ${start + i} <reader${start + i}@example.org>`,
        subject: `Bench ${start + i}`,
        bodyHtml: `<p>Hello reader ${start + i}, <a href="https://example.com/${i}">open</a>.</p>`,
      }));
      await sendBatch({ workspaceId: workspace.id, sandbox: false, body: { emailMessages } });
    }
    const acceptMs = performance.now() - acceptStarted;
    const acceptUsage = process.cpuUsage(acceptCpu);
    const acceptPg = cpuOf(isBackend) - acceptPg0;
    const acceptLogEnd = fs.statSync(PG_LOG).size;
    console.log(
      `accepted ${COUNT} in ${seconds(acceptMs)} (${Math.round(COUNT / (acceptMs / 1000))} msg/s); bench process CPU ${(((acceptUsage.user + acceptUsage.system) / 1e6 / COUNT) * 1000).toFixed(3)} ms/msg, database backends ${((acceptPg / COUNT) * 1000).toFixed(3)} ms/msg`,
    );

    if (args["accept-only"]) return;
    if (args["end-to-end"]) {
      await sink.waitForMessages(COUNT, 600_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const failed = workers
        .flatMap((worker) => worker.lines())
        .filter((line) => line.level === "warn" || line.level === "error");
      console.log(`worker warnings: ${failed.length}`, failed.slice(0, 3));
      const lines = workers.flatMap((worker) => worker.lines());
      console.log(lines.slice(0, 4), lines.length);
      return;
    }
    const env: Record<string, string> = { DATABASE_URL: database.url, DATA_DIR: dataDir.dir, LOG_LEVEL: "info" };
    for (let i = 0; i < Number(args.workers); i++)
      workers.push(args["cpu-prof"] ? profiledWorker(env) : startWorkerProcess(env));
    await Promise.all(workers.map((worker) => worker.started));
    const trees = () => new Set(workers.flatMap((worker) => [...descendants(worker.child.pid!)]));
    const tree0 = trees();
    const workerCpu0 = cpuOf((_, pid) => tree0.has(pid));
    const pgCpu0 = cpuOf(isBackend);
    const sinkCpu0 = process.cpuUsage();
    const started = performance.now();
    await sink.waitForMessages(COUNT, 600_000);
    const ms = performance.now() - started;
    const tree = trees();
    const workerCpu = cpuOf((_, pid) => tree.has(pid)) - workerCpu0;
    const pgCpu = cpuOf(isBackend) - pgCpu0;
    const sinkCpu = process.cpuUsage(sinkCpu0);
    console.log(
      `delivered ${COUNT} in ${seconds(ms)} (${Math.round(COUNT / (ms / 1000))} msg/s) with ${workers.length} worker(s); ` +
        `worker CPU ${((workerCpu / COUNT) * 1000).toFixed(3)} ms/msg, database backends ${((pgCpu / COUNT) * 1000).toFixed(3)} ms/msg, ` +
        `relay sink (this process) ${((sinkCpu.user + sinkCpu.system) / 1e3 / COUNT).toFixed(3)} ms/msg (system ${(sinkCpu.system / 1e3 / COUNT).toFixed(3)})`,
    );
    if (args["log-statements"]) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      for (const [label, stats] of [
        ["acceptance", statementsBetween(logStart, acceptLogEnd, name)],
        ["delivery", statementsBetween(acceptLogEnd, fs.statSync(PG_LOG).size, name)],
      ] as const) {
        const rows = [...stats.entries()].sort((a, b) => b[1].count - a[1].count);
        const total = rows.reduce((sum, [, entry]) => sum + entry.count, 0);
        const totalMs = rows.reduce((sum, [, entry]) => sum + entry.ms, 0);
        console.log(
          `\n${label}: ${(total / COUNT).toFixed(2)} statements/msg, ${(totalMs / COUNT).toFixed(3)} ms server time/msg`,
        );
        for (const [text, entry] of rows.slice(0, 25))
          console.log(
            `${(entry.count / COUNT).toFixed(3).padStart(7)} ${(entry.ms / COUNT).toFixed(3).padStart(7)}ms  ${text}`,
          );
      }
    }
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
    await stopQueue();
    await closeDb();
    await admin.end();
    await database.drop();
    dataDir.remove();
    await sink.close();
  }
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
