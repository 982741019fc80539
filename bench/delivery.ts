/**
 * npm run bench:delivery [-- --count 5000 --scheduled 10000 --concurrency 5 --pg-workers 1,2 --skip-postgres --skip-pglite --webhook-endpoint --routes]
 *
 * Accepts N messages through sendBatch (the use case behind POST /v1/batches: the fastest way in,
 * 1,000 per call), delivers them through the smtp provider to an in-process stand-in relay
 * (bench/relay-sink.ts: minimal pipelining ESMTP, no STARTTLS) and prints, per setup:
 * - end to end: messages/s from the first acceptance to the sink's last 250, workers running meanwhile;
 * - acceptance only: messages/s of the sendBatch calls in that run;
 * - delivery only: N more messages accepted while the workers are stopped (SIGSTOP, or not started in
 *   embedded mode), then messages/s from resuming them to the sink's last 250;
 * - scheduled: 10,000 messages (--scheduled) accepted with one scheduledAt, a second chosen so that
 *   acceptance ends before it (from the acceptance rate just measured), workers running; then
 *   messages/s from that second to the sink's last 250, beside the delivery-only rate of immediate mail;
 * - CPU per message of both deliveries (the delivery-only one and the scheduled one, back to back in
 *   one run): the worker processes' and the database's (PostgreSQL: the scratch database's backends,
 *   read from /proc; PGlite: this process, which holds the worker, the database and the relay), and
 *   the ratio scheduled / immediate of both the rate and the CPU per message: on a shared machine the
 *   rates move with the load, the CPU per message much less;
 * - how many Message-IDs the relay received twice (the at-least-once window; expected 0).
 * Setups: PostgreSQL with 1 and with 2 `npm run worker` processes (a fresh database on the bench
 * server, created and dropped), and embedded PGlite with the in-process worker.
 * With --webhook-endpoint, each setup instead compares the delivery-only figure without and with one
 * webhook endpoint subscribed to every event, as CPU ms per message and as rates (bench/webhook-cost.ts).
 * With --routes, each setup instead compares one connection with 3 rules and 2 connections, and times a failover
 * (bench/support/routing-cost.ts).
 * A benchmark, not a test: figures vary with the machine.
 */
import { parseArgs } from "node:util";
import { closeDb, getDbHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { sendBatch } from "@/lib/sending/send-batch";
import { closeSmtpTransport } from "@/lib/delivery/providers/smtp/smtp-provider";
import { resetEnvForTests } from "@/lib/foundation/env";
import { getQueue, stopQueue } from "@/lib/records/queue/queue";
import { setLogLevel } from "@/lib/foundation/log";
import { startWorkers, stopWorkers } from "@/lib/entry/worker/worker";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { startWorkerProcess, type WorkerProcess } from "@/lib/testing/worker-process";
import { startRelaySink, type RelaySink } from "./support/relay-sink";
import { cpuOf, descendants } from "./support/proc-cpu";
import { measureWebhookCost, type CostWorkers } from "./support/webhook-cost";
import { measureRoutingCost } from "./support/routing-cost";
import { scratchPostgres, seconds, tempDir } from "./support/server";

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "5000" },
    scheduled: { type: "string", default: "10000" },
    concurrency: { type: "string", default: process.env.WORKER_CONCURRENCY ?? "" },
    "skip-postgres": { type: "boolean", default: false },
    "skip-pglite": { type: "boolean", default: false },
    /** Which PostgreSQL setups to run: numbers of worker processes. */
    "pg-workers": { type: "string", default: "1,2" },
    "pg-url": {
      type: "string",
      default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
    /** Compare delivery without and with one webhook endpoint subscribed to every event, instead of the usual figures. */
    "webhook-endpoint": { type: "boolean", default: false },
    /** Compare one connection with 3 rules and 2 connections, and time a failover, instead of the usual figures. */
    routes: { type: "boolean", default: false },
  },
});
const COUNT = Number(args.count);
const SCHEDULED = Number(args.scheduled);
const WARM_UP = 2000;
const rate = (count: number, ms: number) => `${Math.round(count / (ms / 1000))} msg/s`;

/** The settings every setup shares; the workers' concurrency and pool sizes are the defaults unless given. */
function applySettings(values: Record<string, string | undefined>): void {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === "") delete process.env[key];
    else process.env[key] = value;
  }
  resetEnvForTests();
}

async function accept(workspaceId: string, count: number, offset: number, scheduledAt?: Date): Promise<number> {
  const started = performance.now();
  for (let start = 0; start < count; start += 1000) {
    const emailMessages = Array.from({ length: Math.min(1000, count - start) }, (_, i) => ({
      from: "Bench <bench@example.com>",
      to: `Reader ${offset + start + i} <reader${offset + start + i}@example.org>`,
      subject: `Bench ${offset + start + i}`,
      bodyHtml: `<p>Hello reader ${offset + start + i}, <a href="https://example.com/${i}">open</a>.</p>`,
    }));
    await sendBatch({ workspaceId, sandbox: false, body: { emailMessages, scheduledAt: scheduledAt?.toISOString() } });
  }
  return performance.now() - started;
}

interface Workers {
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** CPU seconds so far of what delivers: the workers, and the database (0 when it is inside the workers). */
  cpu(): { workers: number; database: number };
}

/** A delivery's figures: its time, and the CPU per message of the workers and of the database. */
interface Delivery {
  ms: number;
  workerMs: number;
  databaseMs: number;
}

/** Runs `deliver` (which resolves at the sink's last 250) and measures it; `count` messages. */
async function delivery(workers: Workers, count: number, deliver: () => Promise<void>): Promise<Delivery> {
  const cpu0 = workers.cpu();
  const started = performance.now();
  await deliver();
  const ms = performance.now() - started;
  const cpu = workers.cpu();
  return {
    ms,
    workerMs: ((cpu.workers - cpu0.workers) * 1000) / count,
    databaseMs: ((cpu.database - cpu0.database) * 1000) / count,
  };
}

const cpuPerMessage = (run: Delivery) =>
  `${(run.workerMs + run.databaseMs).toFixed(2)} ms` +
  (run.databaseMs > 0 ? ` (workers ${run.workerMs.toFixed(2)}, database ${run.databaseMs.toFixed(2)})` : "");

/** The usual figures, or with --webhook-endpoint the cost of one endpoint taking every event. */
async function run(label: string, sink: RelaySink, workers: Workers & CostWorkers, postgres: boolean): Promise<void> {
  if (args.routes) return measureRoutingCost(label, { sink, workers, accept, count: COUNT, postgres });
  if (!args["webhook-endpoint"]) return measure(label, sink, workers);
  await measureWebhookCost(label, { sink, workers, accept, count: COUNT, postgres });
}

/** Runs both measurements on the database the process is configured for; `workers` are already running. */
async function measure(label: string, sink: RelaySink, workers: Workers): Promise<void> {
  const { workspace } = await createTestWorkspace({ name: "Bench" });
  // Warm-up, not measured: a worker that runs for days has its hot paths compiled by the JIT and its
  // SMTP connections open; a process started a second ago has neither, and the first seconds of a
  // measurement would be its start-up rather than its throughput. 2,000 messages (about two seconds of
  // delivery) take both processes' code to the optimizing tier.
  await accept(workspace.id, WARM_UP, -WARM_UP);
  await sink.waitForMessages(WARM_UP, 120_000);
  await sink.reset();

  const started = performance.now();
  const acceptMs = await accept(workspace.id, COUNT, 0);
  await sink.waitForMessages(COUNT, 600_000);
  const endToEndMs = performance.now() - started;
  const duplicates = sink.duplicates();
  await sink.reset();

  await workers.pause();
  await accept(workspace.id, COUNT, COUNT);
  const immediate = await delivery(workers, COUNT, async () => {
    await workers.resume();
    await sink.waitForMessages(COUNT, 600_000);
  });
  const scheduled = await measureScheduled(workspace.id, sink, workers, acceptMs / COUNT);
  const allDuplicates = duplicates + sink.duplicates() + scheduled.duplicates;
  await sink.reset();

  console.log(
    `${label}: end to end ${rate(COUNT, endToEndMs)} (${COUNT} in ${seconds(endToEndMs)}); ` +
      `acceptance only ${rate(COUNT, acceptMs)} (sendBatch, 1,000 per call); ` +
      `delivery only ${rate(COUNT, immediate.ms)} (${COUNT} in ${seconds(immediate.ms)}); ` +
      `scheduled for one second: ${rate(SCHEDULED, scheduled.ms)} (${SCHEDULED} sent ${seconds(scheduled.ms)} after their time, the first after ${seconds(scheduled.first)}${scheduled.late ? `; acceptance ended ${seconds(scheduled.late)} after it` : ""}); ` +
      `Message-IDs the relay saw twice: ${allDuplicates}\n` +
      `  CPU per message delivered: immediate ${cpuPerMessage(immediate)}, scheduled ${cpuPerMessage(scheduled)}; ` +
      `scheduled / immediate: rate ${ratio(SCHEDULED / scheduled.ms, COUNT / immediate.ms)}, CPU per message ${ratio(scheduled.workerMs + scheduled.databaseMs, immediate.workerMs + immediate.databaseMs)}`,
  );
}

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

/**
 * SCHEDULED messages with one scheduledAt, far enough ahead for acceptance to end first (twice the
 * acceptance time the run just measured, plus 3 s); the workers run all along. Measured from that
 * second to the sink's last 250: the queue releases every job at once (startAfter), and workers fetch
 * them in batches as they do immediate mail.
 */
async function measureScheduled(
  workspaceId: string,
  sink: RelaySink,
  workers: Workers,
  acceptMsPerMessage: number,
): Promise<Delivery & { first: number; late: number; duplicates: number }> {
  await sink.reset();
  const at = new Date(Math.ceil((Date.now() + 2 * acceptMsPerMessage * SCHEDULED + 3000) / 1000) * 1000);
  await accept(workspaceId, SCHEDULED, 2 * COUNT, at);
  const late = Math.max(0, Date.now() - at.getTime());
  // The CPU count starts at that second: the idle polls before it are not the release's.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, at.getTime() - Date.now())));
  let first = 0;
  const measured = await delivery(workers, SCHEDULED, async () => {
    await sink.waitForMessages(1, 600_000);
    first = Date.now() - at.getTime();
    await sink.waitForMessages(SCHEDULED, 600_000);
  });
  const ms = Date.now() - at.getTime();
  const duplicates = sink.duplicates();
  await sink.reset();
  return { ...measured, ms, first, late, duplicates };
}

async function postgresSetup(sink: RelaySink, processes: number, serverUrl: string): Promise<void> {
  const database = await scratchPostgres(serverUrl);
  if (!database) return;
  const dataDir = tempDir();
  applySettings({ DATABASE_URL: database.url, DATA_DIR: dataDir.dir });
  const children: WorkerProcess[] = [];
  try {
    await migrateDatabase(await getDbHandle());
    await getQueue();
    // info: "workers started" says a child is ready (each delivery logs a line too, as in production).
    const workerEnv = { DATABASE_URL: database.url, DATA_DIR: dataDir.dir, LOG_LEVEL: "info" };
    for (let i = 0; i < processes; i++) children.push(startWorkerProcess(workerEnv));
    await Promise.all(children.map((child) => child.started));
    const signal = (name: NodeJS.Signals) => children.forEach((child) => child.child.kill(name));
    const databaseName = new URL(database.url).pathname.slice(1);
    const tree = new Set(children.flatMap((child) => [...descendants(child.child.pid!)]));
    const workers = {
      pause: async () => signal("SIGSTOP"),
      resume: async () => signal("SIGCONT"),
      cpu: () => ({
        workers: cpuOf((_, pid) => tree.has(pid)),
        // This server's backends of the scratch database: the workers' and this process's (idle while they deliver).
        database: cpuOf((cmdline) => cmdline.startsWith("postgres: ") && cmdline.includes(` ${databaseName} `)),
      }),
      pids: children.map((child) => child.child.pid!),
    };
    await run(`postgres, ${processes} worker process${processes > 1 ? "es" : ""}`, sink, workers, true);
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    await stopQueue();
    await closeDb();
    await database.drop();
    dataDir.remove();
  }
}

async function embeddedSetup(sink: RelaySink): Promise<void> {
  const dataDir = tempDir();
  applySettings({ DATABASE_URL: undefined, DATA_DIR: dataDir.dir });
  try {
    await migrateDatabase(await getDbHandle());
    const options = { concurrency: Number(process.env.WORKER_CONCURRENCY || 5) };
    await startWorkers(options);
    const cpu = () => {
      const usage = process.cpuUsage(); // the worker, PGlite and the relay sink's thread: all in this process
      return { workers: (usage.user + usage.system) / 1e6, database: 0 };
    };
    await run(
      "pglite (embedded, in-process worker)",
      sink,
      { pause: stopWorkers, resume: () => startWorkers(options), cpu, pids: [] },
      false,
    );
  } finally {
    await stopWorkers();
    closeSmtpTransport();
    await stopQueue();
    await closeDb();
    dataDir.remove();
  }
}

async function main(): Promise<void> {
  const sink = await startRelaySink();
  // The workers (children inherit this environment) and the in-process worker deliver to the sink.
  applySettings({
    DELIVERY_PROVIDER: "smtp",
    SMTP_URL: sink.url,
    WORKER_CONCURRENCY: args.concurrency,
    LOG_LEVEL: "warn",
    RATE_LIMIT_PER_SECOND: "0",
  });
  // --webhook-endpoint's receiver listens on loopback over http.
  if (args["webhook-endpoint"]) applySettings({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_ALLOW_HTTP: "true" });
  // --routes's connections point at relays on loopback.
  if (args.routes) applySettings({ PROVIDERS_ALLOW_PRIVATE: "true" });
  setLogLevel("warn");
  console.log(
    `bench:delivery: ${COUNT} messages per measurement, WORKER_CONCURRENCY=${process.env.WORKER_CONCURRENCY ?? "default"}`,
  );
  try {
    if (!args["skip-postgres"]) {
      for (const processes of args["pg-workers"]!.split(",").map(Number))
        await postgresSetup(sink, processes, args["pg-url"]!);
    }
    if (!args["skip-pglite"]) await embeddedSetup(sink);
  } finally {
    await sink.close();
  }
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
