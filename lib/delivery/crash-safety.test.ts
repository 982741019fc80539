import { eq, sql } from "drizzle-orm";
import { fromDrizzle, fromPglite, PgBoss } from "pg-boss";
import { describe, expect, it } from "vitest";
import { type DbHandle } from "@/db/client";
import { pgBossPglite } from "@/internals/pglite";
import { emailMessageLogs, emailMessages, localInbox } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { enqueueDelivery, getQueue, QUEUES, stopQueue, type DeliverMessageJob } from "@/lib/records/queue/queue";
import { startWorkers, stopWorkers } from "@/lib/entry/worker/worker";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { onDiskDatabases } from "@/lib/testing/on-disk-database";
import { waitFor } from "@/lib/testing/wait-for";

/**
 * "A stopped and restarted server keeps every message; a message accepted just before a crash is
 * delivered after the restart, once." Runs on an embedded database in a real directory on disk,
 * whichever database the rest of the run uses.
 */
const disk = await onDiskDatabases();
const boot = disk.boot;

/** Stops the queue without running any job and closes the database: what a crash leaves on disk. */
async function crash(handle: DbHandle): Promise<void> {
  await stopQueue();
  await disk.close(handle);
}

function row(workspaceId: string): typeof emailMessages.$inferInsert {
  return {
    id: newId("message"),
    workspaceId,
    source: "API",
    sandbox: false,
    status: "PENDING",
    to: ["ada@example.org"],
    from: "hello@example.com",
    subject: "Before the crash",
    bodyHtml: "<p>Hi</p>",
    bodyText: "Hi",
  };
}

async function deliveries(handle: DbHandle, messageId: string) {
  const [message] = await handle.db.select().from(emailMessages).where(eq(emailMessages.id, messageId));
  const events = await handle.db.select().from(emailMessageLogs).where(eq(emailMessageLogs.emailMessageId, messageId));
  const inbox = await handle.db.select().from(localInbox).where(eq(localInbox.emailMessageId, messageId));
  return { status: message.status, codes: events.map((event) => event.code).sort(), inboxRows: inbox.length };
}

async function waitUntilDelivered(handle: DbHandle, messageIds: string[]): Promise<void> {
  for (const id of messageIds) {
    await waitFor(async () => (await deliveries(handle, id)).status === "SUCCEEDED", {
      what: `message ${id} to be delivered`,
      timeout: 25_000,
    });
  }
}

// Only the embedded database restarts here, whatever the run's database: the PostgreSQL run (DATABASE_URL)
// would repeat the PGlite run's test, so it skips it.
describe.skipIf(process.env.DATABASE_URL)("crash safety (embedded database on disk)", () => {
  it("delivers after a restart, once: a message never claimed, and one claimed by a worker that died", async () => {
    const dir = disk.tempDir("crash");

    // First life: two messages accepted with their jobs; no worker runs.
    let handle = await boot(dir);
    const { workspace } = await createTestWorkspace();
    const claimed = row(workspace.id);
    const waiting = row(workspace.id);
    const boss = await getQueue();
    await handle.db.transaction(async (tx) => {
      await tx.insert(emailMessages).values(claimed);
      const job: DeliverMessageJob = { workspaceId: workspace.id, messageId: claimed.id! };
      // A short expiry and retry delay keep the test fast; the queue's own are 120 s and 5 s.
      await boss.send(QUEUES.deliverMessage, job, {
        db: fromDrizzle(tx, sql),
        expireInSeconds: 2,
        retryDelay: 1,
        retryBackoff: false,
      });
    });
    // A worker claims that job and dies before finishing it: the job stays active.
    const [taken] = await boss.fetch<DeliverMessageJob>(QUEUES.deliverMessage);
    expect(taken.data.messageId).toBe(claimed.id);
    await handle.db.transaction(async (tx) => {
      await tx.insert(emailMessages).values(waiting);
      await enqueueDelivery(tx, { workspaceId: workspace.id, messageId: waiting.id! });
    });
    await crash(handle);

    // Second life: the same directory, the server's workers, and a supervisor that checks expiry
    // every second (pg-boss's default is every minute).
    handle = await boot(dir);
    expect((await deliveries(handle, waiting.id!)).status).toBe("PENDING");
    const supervisor = new PgBoss({
      db: fromPglite(pgBossPglite(handle.pglite!)),
      backend: "pglite",
      superviseIntervalSeconds: 1,
      monitorIntervalSeconds: 1,
      schedule: false,
    });
    await supervisor.start();
    try {
      await startWorkers({ pollingIntervalSeconds: 0.5 });
      await waitUntilDelivered(handle, [waiting.id!, claimed.id!]);
    } finally {
      await supervisor.stop({ graceful: false, close: false });
    }
    await stopWorkers();

    for (const id of [waiting.id!, claimed.id!]) {
      expect(await deliveries(handle, id)).toEqual({
        status: "SUCCEEDED",
        codes: ["EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT", "EMAIL_MESSAGE_SENT_PROVIDER_EVENT"],
        inboxRows: 1,
      });
    }
    const retried = await (await getQueue()).getJobById(QUEUES.deliverMessage, taken.id);
    expect(retried).toMatchObject({ state: "completed", retryCount: 1 });

    // A clean stop and restart keeps every message.
    await crash(handle);
    handle = await boot(dir);
    expect(await deliveries(handle, claimed.id!)).toMatchObject({ status: "SUCCEEDED", inboxRows: 1 });
  }, 60_000);
});
