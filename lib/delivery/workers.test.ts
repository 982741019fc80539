import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { inArray } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { afterEach, describe, expect, it } from "vitest";
import { getDb, openPostgres, type DbHandle } from "@/db/client";
import { emailMessageLogs, emailMessages, localInbox } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import {
  createBoss,
  enqueueDelivery,
  getQueue,
  installQueue,
  QUEUES,
  type DeliverMessageJob,
} from "@/lib/records/queue/queue";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { waitFor } from "@/lib/testing/wait-for";

/**
 * "With DATABASE_URL, `npm run worker` also starts standalone workers, and several may run at once
 * without sending any message twice."
 */
const serverUrl = process.env.DATABASE_URL;
const cleanup: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const task of cleanup.splice(0).reverse()) await task();
});

async function acceptMessages(count: number): Promise<string[]> {
  const { workspace } = await createTestWorkspace();
  const db = await getDb();
  await getQueue(); // started before the transaction (see enqueueDelivery)
  const ids = Array.from({ length: count }, () => newId("message"));
  await db.transaction(async (tx) => {
    for (const id of ids) {
      await tx.insert(emailMessages).values({
        id,
        workspaceId: workspace.id,
        source: "API",
        sandbox: false,
        status: "PENDING",
        to: ["ada@example.org"],
        from: "hello@example.com",
        subject: "Many",
        bodyHtml: "<p>Hi</p>",
        bodyText: "Hi",
      });
      await enqueueDelivery(tx, { workspaceId: workspace.id, messageId: id });
    }
  });
  return ids;
}

async function expectEachDeliveredOnce(ids: string[]): Promise<void> {
  const db = await getDb();
  const statuses = () =>
    db.select({ status: emailMessages.status }).from(emailMessages).where(inArray(emailMessages.id, ids));
  await waitFor(async () => (await statuses()).every((row) => row.status === "SUCCEEDED"), {
    what: "every message to be delivered",
    timeout: 30_000,
  });
  const inbox = await db
    .select({ id: localInbox.emailMessageId })
    .from(localInbox)
    .where(inArray(localInbox.emailMessageId, ids));
  expect(inbox).toHaveLength(ids.length);
  const events = await db
    .select({ code: emailMessageLogs.code })
    .from(emailMessageLogs)
    .where(inArray(emailMessageLogs.emailMessageId, ids));
  // Exactly one SENT and one DELIVERED per message.
  expect(events.filter((event) => event.code === "EMAIL_MESSAGE_SENT_PROVIDER_EVENT")).toHaveLength(ids.length);
  expect(events.filter((event) => event.code === "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT")).toHaveLength(ids.length);
}

describe("several workers at once (PostgreSQL)", () => {
  it.skipIf(!serverUrl)("two independent queues drain 50 messages, each job handled and delivered once", async () => {
    const handled = new Map<string, number>();
    const perWorker = [0, 0];
    const bosses: PgBoss[] = [];
    for (const worker of [0, 1]) {
      const handle: DbHandle = await openPostgres(serverUrl!, 3);
      const boss = createBoss(handle);
      await boss.start();
      await installQueue(boss);
      cleanup.push(
        () => handle.close(),
        () => boss.stop({ graceful: true, timeout: 5_000 }),
      );
      bosses.push(boss);
      await boss.work<DeliverMessageJob>(
        QUEUES.deliverMessage,
        { batchSize: 1, localConcurrency: 3, pollingIntervalSeconds: 0.5 },
        async ([job]) => {
          handled.set(job.id, (handled.get(job.id) ?? 0) + 1);
          perWorker[worker]++;
          await deliverMessage(job.data, { attempt: job.retryCount });
        },
      );
    }
    const ids = await acceptMessages(50);
    await expectEachDeliveredOnce(ids);
    expect([...handled.values()].every((times) => times === 1)).toBe(true);
    expect(perWorker[0]).toBeGreaterThan(0);
    expect(perWorker[1]).toBeGreaterThan(0);
  });

  it.skipIf(!serverUrl)(
    "two `npm run worker` processes deliver each message once and stop on SIGTERM",
    async () => {
      const workers = [startWorkerProcess(), startWorkerProcess()];
      for (const worker of workers) cleanup.push(() => stopProcess(worker.child));
      await Promise.all(workers.map((worker) => worker.started));
      const ids = await acceptMessages(30);
      await expectEachDeliveredOnce(ids);
      // Each process logs every message it handed to the provider (a line per batch naming them): none
      // twice. (Which process takes how many is up to timing: one may claim whole batches before the other wakes.)
      const all = workers
        .flatMap((worker) => worker.lines().filter((line) => line.message === "messages handed to provider"))
        .flatMap((line) => line.messageIds as string[])
        .filter((id) => ids.includes(id));
      expect(new Set(all).size).toBe(all.length);
      expect(all.length).toBe(ids.length);
      for (const worker of workers) expect(await stopProcess(worker.child)).toBe(0);
    },
    60_000,
  );

  it("`npm run worker` refuses to run without DATABASE_URL", async () => {
    const worker = startWorkerProcess({ DATABASE_URL: "" });
    expect(await exitOf(worker.child)).toBe(1);
    expect(worker.stderr()).toContain("npm run worker needs DATABASE_URL");
  });
});

const root = process.cwd();

function startWorkerProcess(extraEnv: Record<string, string> = {}) {
  const child = spawn(
    path.join(root, "node_modules", ".bin", "tsx"),
    ["--conditions=react-server", path.join("lib", "entry", "worker", "worker-main.ts")],
    { cwd: root, env: { ...process.env, LOG_LEVEL: "info", WORKER_CONCURRENCY: "3", ...extraEnv }, stdio: "pipe" },
  );
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const started = new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      stdout += chunk;
      if (stdout.includes('"workers started"')) resolve();
    });
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}: ${stderr}`)));
  });
  started.catch(() => {});
  const lines = () =>
    stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, started, lines, stderr: () => stderr };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

async function stopProcess(child: ChildProcess): Promise<number | null> {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  return exitOf(child);
}
