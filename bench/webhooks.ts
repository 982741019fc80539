/**
 * npm run bench:webhooks [-- --count 5000 --messages 2000 --skip-slowdown]
 *
 * On PostgreSQL (a fresh database on the bench server, created and dropped), prints:
 * - webhooks delivered per second to a local HTTP receiver (in this process, answering 200 at once)
 *   with 1 and with 2 `npm run worker` processes: N events recorded while the workers are stopped
 *   (SIGSTOP), then webhooks/s from resuming them to the receiver's Nth distinct webhook-id, and the
 *   CPU each delivered event cost meanwhile (the workers, the database's backends, the receiver);
 * - the cost for mail delivery of one endpoint subscribed to every event: the delivery-only figure of
 *   bench:delivery (messages accepted while the worker is stopped, then messages/s to the relay's last
 *   250), without any endpoint and with one, on 1 worker process; and the acceptance rate both ways
 *   (each accepted message now also writes its email.created feed row).
 * A benchmark, not a test: figures vary with the machine.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { closeDb, getDb, getDbHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { emailMessages } from "@/db/schema";
import { insertJsonRows } from "@/db/insert-json-rows";
import { resetEnvForTests } from "@/lib/foundation/env";
import { newId } from "@/lib/foundation/ids";
import { setLogLevel } from "@/lib/foundation/log";
import { getQueue, stopQueue } from "@/lib/records/queue/queue";
import { sendBatch } from "@/lib/sending/send-batch";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { startWorkerProcess, type WorkerProcess } from "@/lib/testing/worker-process";
import { recordEventForMessages } from "@/lib/records/timeline/record-event";
import { createEndpoint } from "@/lib/flows/webhooks/manage-endpoints";
import { startRelaySink, type RelaySink } from "./support/relay-sink";
import { cpuSnapshot, loadAverage } from "./support/proc-cpu";
import { scratchPostgres, seconds, tempDir } from "./support/server";

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "5000" },
    messages: { type: "string", default: "3000" },
    "skip-slowdown": { type: "boolean", default: false },
    "pg-url": {
      type: "string",
      default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
  },
});
const COUNT = Number(args.count);
const MESSAGES = Number(args.messages);

function applySettings(values: Record<string, string | undefined>): void {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === "") delete process.env[key];
    else process.env[key] = value;
  }
  resetEnvForTests();
}

/** A receiver as small as it gets: 200 at once, counting distinct webhook-ids. */
async function startCounter() {
  const seen = new Set<string>();
  let total = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      total++;
      seen.add(String(request.headers["webhook-id"]));
      response.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    distinct: () => seen.size,
    total: () => total,
    reset: () => (seen.clear(), (total = 0)),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
type Counter = Awaited<ReturnType<typeof startCounter>>;

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** N email.created events through the timeline's own writer (messages inserted directly: no mail delivery competes). */
async function recordEvents(workspaceId: string, count: number): Promise<void> {
  const db = await getDb();
  for (let start = 0; start < count; start += 1000) {
    const now = new Date();
    const rows = Array.from({ length: Math.min(1000, count - start) }, (_, i) => ({
      id: newId("message", now),
      workspaceId,
      source: "API" as const,
      sandbox: false,
      status: "SUCCEEDED" as const,
      to: [`r${start + i}@example.org`],
      from: "bench@example.com",
      subject: `Bench ${start + i}`,
      bodyHtml: "<p>x</p>",
      bodyText: "x",
      createdAt: now,
      updatedAt: now,
    }));
    await db.transaction(async (tx) => {
      await insertJsonRows(tx, emailMessages, rows);
      await recordEventForMessages(tx, {
        workspaceId,
        messageIds: rows.map((row) => row.id),
        code: "EMAIL_MESSAGE_CREATED",
        message: "Created.",
        at: now,
      });
    });
  }
}

async function withPostgres<T>(work: (url: string, dataDir: string) => Promise<T>): Promise<T | undefined> {
  const database = await scratchPostgres(args["pg-url"]!);
  if (!database) return undefined;
  const dataDir = tempDir();
  applySettings({ DATABASE_URL: database.url, DATA_DIR: dataDir.dir });
  try {
    await migrateDatabase(await getDbHandle());
    await getQueue();
    return await work(database.url, dataDir.dir);
  } finally {
    await stopQueue();
    await closeDb();
    await database.drop();
    dataDir.remove();
  }
}

async function startWorkers(count: number, env: Record<string, string>): Promise<WorkerProcess[]> {
  const children = Array.from({ length: count }, () => startWorkerProcess({ LOG_LEVEL: "info", ...env }));
  await Promise.all(children.map((child) => child.started));
  return children;
}

async function webhookThroughput(counter: Counter, processes: number): Promise<void> {
  await withPostgres(async (url, dataDir) => {
    const children = await startWorkers(processes, { DATABASE_URL: url, DATA_DIR: dataDir });
    try {
      const { workspace } = await createTestWorkspace({ name: "Bench" });
      await createEndpoint(workspace.id, { url: counter.url }, "bench");
      // Warm-up: JIT and keep-alive connections.
      await recordEvents(workspace.id, 1000);
      await until(() => counter.distinct() >= 1000, 120_000, "the warm-up webhooks");
      counter.reset();
      children.forEach((child) => child.child.kill("SIGSTOP"));
      await recordEvents(workspace.id, COUNT);
      const database = new URL(url).pathname.slice(1);
      const pids = children.map((child) => child.child.pid!);
      const before = { ...cpuSnapshot(pids, database), bench: process.cpuUsage() };
      const resumed = performance.now();
      children.forEach((child) => child.child.kill("SIGCONT"));
      await until(() => counter.distinct() >= COUNT, 600_000, "the webhooks");
      const ms = performance.now() - resumed;
      const after = cpuSnapshot(pids, database);
      // What delivering one recorded event costs, end to end: fan-out, jobs, payloads, signing, the request, the attempt log.
      const per = (cpuSeconds: number) => ((cpuSeconds * 1000) / COUNT).toFixed(2);
      const bench = process.cpuUsage(before.bench);
      console.log(
        `postgres, ${processes} worker process${processes > 1 ? "es" : ""}: ${Math.round(COUNT / (ms / 1000))} webhooks/s ` +
          `(${COUNT} in ${seconds(ms)}; ${counter.total() - counter.distinct()} sent twice); CPU ms per webhook: ` +
          `workers ${per(after.app - before.app)}, database ${per(after.db - before.db)}, receiver ${per((bench.user + bench.system) / 1e6)} (load ${loadAverage()})`,
      );
      counter.reset();
    } finally {
      await Promise.all(children.map((child) => child.stop()));
    }
  });
}

/** bench:delivery's delivery-only figure and the acceptance rate, with or without an endpoint taking every event. */
async function deliveryRate(
  sink: RelaySink,
  counter: Counter,
  withEndpoint: boolean,
): Promise<{ delivery: number; acceptance: number }> {
  const result = await withPostgres(async (url, dataDir) => {
    const children = await startWorkers(1, { DATABASE_URL: url, DATA_DIR: dataDir });
    try {
      const { workspace } = await createTestWorkspace({ name: "Bench" });
      if (withEndpoint) await createEndpoint(workspace.id, { url: counter.url }, "bench");
      const accept = async (count: number, offset: number) => {
        const started = performance.now();
        for (let start = 0; start < count; start += 1000) {
          const emailMessages = Array.from({ length: Math.min(1000, count - start) }, (_, i) => ({
            from: "Bench <bench@example.com>",
            to: `reader${offset + start + i}@example.org`,
            subject: `Bench ${offset + start + i}`,
            bodyHtml: `<p>${i}</p>`,
          }));
          await sendBatch({ workspaceId: workspace.id, sandbox: false, body: { emailMessages } });
        }
        return performance.now() - started;
      };
      await accept(1000, -1000);
      await sink.waitForMessages(1000, 120_000);
      await sink.reset();
      children.forEach((child) => child.child.kill("SIGSTOP"));
      const acceptMs = await accept(MESSAGES, 0);
      const resumed = performance.now();
      children.forEach((child) => child.child.kill("SIGCONT"));
      await sink.waitForMessages(MESSAGES, 600_000);
      const deliveryMs = performance.now() - resumed;
      await sink.reset();
      return { delivery: MESSAGES / (deliveryMs / 1000), acceptance: MESSAGES / (acceptMs / 1000) };
    } finally {
      await Promise.all(children.map((child) => child.stop()));
    }
  });
  return result ?? { delivery: NaN, acceptance: NaN };
}

async function main(): Promise<void> {
  const counter = await startCounter();
  const sink = await startRelaySink();
  applySettings({
    DELIVERY_PROVIDER: "smtp",
    SMTP_URL: sink.url,
    LOG_LEVEL: "warn",
    RATE_LIMIT_PER_SECOND: "0",
    WEBHOOKS_ALLOW_PRIVATE: "true",
    WEBHOOKS_ALLOW_HTTP: "true",
  });
  setLogLevel("warn");
  console.log(
    `bench:webhooks: ${COUNT} webhooks per throughput measurement, ${MESSAGES} messages per delivery measurement`,
  );
  try {
    await webhookThroughput(counter, 1);
    await webhookThroughput(counter, 2);
    if (!args["skip-slowdown"]) {
      const without = await deliveryRate(sink, counter, false);
      const withOne = await deliveryRate(sink, counter, true);
      const slowdown = (1 - withOne.delivery / without.delivery) * 100;
      console.log(
        `bench:delivery, 1 worker: delivery only ${Math.round(without.delivery)} msg/s without endpoints, ${Math.round(withOne.delivery)} msg/s with one endpoint ` +
          `subscribed to everything (${slowdown.toFixed(1)} % slower); acceptance ${Math.round(without.acceptance)} → ${Math.round(withOne.acceptance)} msg/s`,
      );
    }
  } finally {
    await sink.close();
    await counter.close();
  }
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
