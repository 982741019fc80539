/**
 * tsx --conditions=react-server bench/support/profile-scheduled.ts [--count 5000] [--workers 1] [--first immediate|scheduled] [--log-statements]
 *
 * A profiling aid for the scheduled line of bench:delivery, not a benchmark of its own: on one scratch
 * PostgreSQL database and the same worker processes, N immediate messages (accepted while the workers
 * are stopped by SIGSTOP, then resumed) and N scheduled ones (accepted for one second a little ahead
 * while the workers run, released by pg-boss at that second) are delivered to the relay sink back to
 * back, each measured from its release (the resume; the second) to the sink's last 250. Prints for each: the delivery time, CPU per message of the
 * workers and of the database backends, and (--log-statements) the statements per message the server
 * logged for that database, grouped by text.
 */
import fs from "node:fs";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { closeDb, getDbHandle, type Db } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { resetEnvForTests } from "@/lib/foundation/env";
import { setLogLevel } from "@/lib/foundation/log";
import { getQueue, stopQueue } from "@/lib/records/queue/queue";
import { sendBatch } from "@/lib/sending/send-batch";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { startWorkerProcess, type WorkerProcess } from "@/lib/testing/worker-process";
import { cpuOf, descendants } from "./proc-cpu";
import { PG_LOG, statementsBetween } from "./pg-log";
import { startRelaySink, type RelaySink } from "./relay-sink";
import { scratchPostgres, seconds, tempDir } from "./server";

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "5000" },
    workers: { type: "string", default: "1" },
    first: { type: "string", default: "immediate" },
    "log-statements": { type: "boolean", default: false },
    /** Plans of statements over 5 ms go to the server log (auto_explain). */
    explain: { type: "boolean", default: false },
    "pg-url": {
      type: "string",
      default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
  },
});
const COUNT = Number(args.count);

async function accept(workspaceId: string, offset: number, scheduledAt?: Date): Promise<void> {
  for (let start = 0; start < COUNT; start += 1000) {
    const emailMessages = Array.from({ length: Math.min(1000, COUNT - start) }, (_, i) => ({
      from: "Bench <bench@example.com>",
      to: `Reader ${offset + start + i} <reader${offset + start + i}@example.org>`,
      subject: `Bench ${offset + start + i}`,
      bodyHtml: `<p>Hello reader ${offset + start + i}, <a href="https://example.com/${i}">open</a>.</p>`,
    }));
    await sendBatch({ workspaceId, sandbox: false, body: { emailMessages, scheduledAt: scheduledAt?.toISOString() } });
  }
}

interface Phase {
  /** Readies the phase's messages; returns what starts their delivery. */
  prepare(): Promise<() => Promise<void>>;
}

/**
 * Entries of the status index read so far: a statement that names its messages by id but is answered
 * from that index reads every PENDING message's entry. The backends report their counts when idle
 * (at most every 10 s on PostgreSQL 15), hence the wait.
 */
async function indexReads(db: Db): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const rows = await db.execute<{ reads: string }>(
    sql`select idx_tup_read as reads from pg_stat_user_indexes where indexrelname = 'email_messages_status_idx'`,
  );
  return Number([...rows][0]?.reads ?? 0);
}

async function run(
  label: string,
  phase: Phase,
  context: { sink: RelaySink; workers: WorkerProcess[]; database: string; db: Db },
): Promise<void> {
  const { sink, workers, database } = context;
  await sink.reset();
  const release = await phase.prepare();
  await new Promise((resolve) => setTimeout(resolve, 1000)); // let autovacuum and the idle polls of acceptance settle
  const statusIndex0 = await indexReads(context.db);
  const isBackend = (cmdline: string) => cmdline.includes(`postgres: 15/main: postgres ${database} `);
  const tree = new Set(workers.flatMap((worker) => [...descendants(worker.child.pid!)]));
  const worker0 = cpuOf((_, pid) => tree.has(pid));
  const pg0 = cpuOf(isBackend);
  const log0 = fs.statSync(PG_LOG).size;
  const started = performance.now();
  await release();
  await sink.waitForMessages(COUNT, 600_000);
  const ms = performance.now() - started;
  const workerCpu = cpuOf((_, pid) => tree.has(pid)) - worker0;
  const pgCpu = cpuOf(isBackend) - pg0;
  const statusIndex = (await indexReads(context.db)) - statusIndex0;
  console.log(
    `${label}: ${COUNT} delivered in ${seconds(ms)} (${Math.round(COUNT / (ms / 1000))} msg/s); ` +
      `worker CPU ${((workerCpu / COUNT) * 1000).toFixed(3)} ms/msg, database backends ${((pgCpu / COUNT) * 1000).toFixed(3)} ms/msg; duplicates ${sink.duplicates()}; ` +
      `email_messages_status_idx entries read ${(statusIndex / COUNT).toFixed(1)} per message`,
  );
  if (!args["log-statements"]) return;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const rows = [...statementsBetween(log0, fs.statSync(PG_LOG).size, database).entries()].sort(
    (a, b) => b[1].ms - a[1].ms,
  );
  const total = rows.reduce((sum, [, entry]) => sum + entry.count, 0);
  const totalMs = rows.reduce((sum, [, entry]) => sum + entry.ms, 0);
  console.log(
    `  ${(total / COUNT).toFixed(2)} statements/msg, ${(totalMs / COUNT).toFixed(3)} ms server time/msg (count/msg, ms/msg, text)`,
  );
  for (const [text, entry] of rows.slice(0, 20))
    console.log(
      `  ${(entry.count / COUNT).toFixed(3).padStart(7)} ${(entry.ms / COUNT).toFixed(3).padStart(7)}ms  ${text}`,
    );
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
    if (args["log-statements"]) await admin.unsafe(`alter database ${name} set log_min_duration_statement = 0`);
    if (args.explain) {
      await admin.unsafe(`alter database ${name} set session_preload_libraries = 'auto_explain'`);
      await admin.unsafe(`alter database ${name} set auto_explain.log_min_duration = 5`);
      await admin.unsafe(`alter database ${name} set auto_explain.log_analyze = on`);
      await admin.unsafe(`alter database ${name} set auto_explain.log_nested_statements = on`);
    }
    await closeDb(); // new connections take the setting
    const db = await getDbHandle();
    await getQueue();
    const { workspace } = await createTestWorkspace({ name: "Profile" });
    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir.dir, LOG_LEVEL: "info" };
    for (let i = 0; i < Number(args.workers); i++) workers.push(startWorkerProcess(env));
    await Promise.all(workers.map((worker) => worker.started));
    const signal = (name: NodeJS.Signals) => workers.forEach((worker) => worker.child.kill(name));
    const immediate: Phase = {
      async prepare() {
        signal("SIGSTOP");
        await accept(workspace.id, 0);
        return async () => void signal("SIGCONT");
      },
    };
    const scheduled: Phase = {
      async prepare() {
        // Far enough ahead for acceptance (~1 ms per message here) and the counters' read before it.
        const at = new Date(Math.ceil((Date.now() + 2 * COUNT + 15_000) / 1000) * 1000);
        await accept(workspace.id, COUNT, at);
        return async () => {
          if (Date.now() > at.getTime())
            throw new Error("acceptance ended after the messages' time: the figures would miss their start");
          await new Promise((resolve) => setTimeout(resolve, at.getTime() - Date.now()));
        };
      },
    };
    const phases: Array<[string, Phase]> = [
      ["immediate", immediate],
      ["scheduled", scheduled],
    ];
    if (args.first === "scheduled") phases.reverse();
    for (const [label, phase] of phases) await run(label, phase, { sink, workers, database: name, db: db.db });
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
