import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { getDb } from "@/db/client";
import { emailMessageLogs, localInbox } from "@/db/schema";
import { setClock } from "@/lib/foundation/clock";
import { AppError } from "@/lib/foundation/errors";
import { cancelMessage } from "@/lib/domain/messages/cancel-message";
import { rescheduleMessage } from "@/lib/domain/messages/reschedule-message";
import { getQueue, QUEUES, type DeliverMessageJob } from "@/lib/records/queue/queue";
import { sendMessage } from "@/lib/sending/send-message";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { waitFor } from "@/lib/testing/wait-for";
import { startWorkers, stopWorkers } from "@/lib/entry/worker/worker";
import { pauseSending } from "@/lib/domain/workspaces/pause-sending";
import { resumeSending } from "@/lib/domain/workspaces/resume-sending";
import { deliverMessages } from "./deliver-batch";
import type { DeliveryProvider } from "./provider";

/**
 * Issue #18: a scheduled message goes out at its time, once; a cancelled one never does, even when a
 * worker already holds its job; a reschedule leaves the earlier job harmless; a paused workspace holds
 * scheduled mail. The clock is injected (lib/foundation/clock.ts); the queue's own time is moved in its table.
 */
const NOW = new Date();
const AT = new Date(NOW.getTime() + 3600_000);
const raw = {
  from: "Acme <hello@example.com>",
  to: "ada@example.org",
  subject: "Reminder",
  bodyHtml: "<p>Tomorrow at 9</p>",
};

afterEach(() => setClock(null));

function networkProvider(onSend?: (messageId: string) => Promise<void>): DeliveryProvider & { sent: string[] } {
  return {
    name: "smtp",
    description: "the SMTP relay smtp.test",
    transactional: false,
    confirmsDelivery: false,
    needsMime: false,
    sent: [],
    async send(mail) {
      await onSend?.(mail.messageId);
      this.sent.push(mail.messageId);
      return { outcome: "accepted", referenceId: `<${mail.messageId}@smtp.test>` };
    },
  };
}

async function schedule(workspaceId: string, at = AT): Promise<DeliverMessageJob> {
  setClock(() => NOW);
  const { message } = await sendMessage({
    workspaceId,
    sandbox: false,
    body: { ...raw, scheduledAt: at.toISOString() },
  });
  return { workspaceId, messageId: message.id, scheduledAt: at.toISOString() };
}

async function codes(messageId: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ code: emailMessageLogs.code })
    .from(emailMessageLogs)
    .where(eq(emailMessageLogs.emailMessageId, messageId))
    .orderBy(emailMessageLogs.createdAt, emailMessageLogs.id);
  return rows.map((row) => row.code);
}

/** The queue's clock is the database's: "time passes" for a job by moving its startAfter into the past. */
async function makeDue(messageId: string): Promise<void> {
  const db = await getDb();
  await db.execute(
    sql`update pgboss.job set start_after = now() - interval '1 second' where name = ${QUEUES.deliverMessage} and data->>'messageId' = ${messageId}`,
  );
}

const conflictOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof AppError ? error : Promise.reject(error)),
  );

describe("a cancel racing a worker that holds the job", () => {
  for (const kind of ["network", "transactional"] as const) {
    it(`never reaches a ${kind} provider when the cancel commits after the worker loaded the message`, async () => {
      const { workspace } = await createTestWorkspace();
      const job = await schedule(workspace.id);
      const network = networkProvider();
      // The worker has fetched the job and read the message PENDING; the cancel lands in that window.
      const afterLoad = async () =>
        void (await cancelMessage({ workspaceId: workspace.id, messageId: job.messageId, by: "by the test" }));
      await deliverMessage(job, { attempt: 0, afterLoad, ...(kind === "network" ? { provider: network } : {}) });
      const { message, inbox } = await readMessageState(job.messageId);
      expect(network.sent).toEqual([]);
      expect(inbox).toHaveLength(0);
      expect(message).toMatchObject({ status: "CANCELLED", sentAt: null, handedOverAt: null });
      expect((await codes(job.messageId)).filter((code) => code.includes("SENT"))).toEqual([]);
    });
  }

  it("refuses the cancel with a 409 once the message is handed over, and it is sent once", async () => {
    const { workspace } = await createTestWorkspace();
    const job = await schedule(workspace.id);
    let refusal: AppError | null = null;
    const provider = networkProvider(async (messageId) => {
      refusal = await conflictOf(cancelMessage({ workspaceId: workspace.id, messageId, by: "by the test" }));
    });
    await deliverMessage(job, { attempt: 0, provider });
    expect(provider.sent).toEqual([job.messageId]);
    expect(refusal).toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/handed over/) });
    const { message } = await readMessageState(job.messageId);
    expect(message.status).toBe("SUCCEEDED");
  });

  it("keeps the invariant under many concurrent cancels and deliveries: each message is either cancelled or sent, never both", async () => {
    const { workspace } = await createTestWorkspace();
    const jobs: DeliverMessageJob[] = [];
    for (let i = 0; i < 40; i++) jobs.push(await schedule(workspace.id));
    const provider = networkProvider();
    const deliveries = [0, 1, 2, 3].map((part) =>
      deliverMessages(jobs.filter((_, i) => i % 4 === part).map((job) => ({ job, context: { attempt: 0, provider } }))),
    );
    const cancels = jobs.map((job) =>
      conflictOf(cancelMessage({ workspaceId: workspace.id, messageId: job.messageId, by: "by the test" })),
    );
    const [refusals] = await Promise.all([Promise.all(cancels), Promise.all(deliveries)]);
    for (const [index, job] of jobs.entries()) {
      const { message } = await readMessageState(job.messageId);
      const sent = provider.sent.includes(job.messageId);
      expect(message.status).toBe(sent ? "SUCCEEDED" : "CANCELLED");
      expect(refusals[index] !== null).toBe(sent);
    }
    expect(new Set(provider.sent).size).toBe(provider.sent.length);
  });
});

describe("scheduled delivery", () => {
  it("ignores the job made before a reschedule; the new job delivers", async () => {
    const { workspace } = await createTestWorkspace();
    const first = await schedule(workspace.id);
    const later = new Date(AT.getTime() + 3600_000);
    await rescheduleMessage({
      workspaceId: workspace.id,
      messageId: first.messageId,
      scheduledAt: later.toISOString(),
      by: "by the test",
    });
    const provider = networkProvider();
    await deliverMessage(first, { attempt: 0, provider });
    expect(provider.sent).toEqual([]);
    expect((await readMessageState(first.messageId)).message).toMatchObject({ status: "PENDING", handedOverAt: null });
    await deliverMessage({ ...first, scheduledAt: later.toISOString() }, { attempt: 0, provider });
    expect(provider.sent).toEqual([first.messageId]);
  });

  it("holds scheduled mail while the workspace is paused and releases it for its time on resume", async () => {
    const { workspace } = await createTestWorkspace();
    await pauseSending({ workspaceId: workspace.id, actor: AUDIT_SYSTEM_ACTOR });
    const heldAtAcceptance = await schedule(workspace.id);
    expect((await readMessageState(heldAtAcceptance.messageId)).message.status).toBe("PAUSED");
    expect(await codes(heldAtAcceptance.messageId)).toEqual([
      "EMAIL_MESSAGE_CREATED",
      "EMAIL_MESSAGE_RENDERED",
      "EMAIL_MESSAGE_SCHEDULED",
      "EMAIL_MESSAGE_PAUSED",
    ]);
    await resumeSending({ workspaceId: workspace.id, actor: AUDIT_SYSTEM_ACTOR });
    const db = await getDb();
    const rows = await db.execute(
      sql`select start_after, data from pgboss.job where name = ${QUEUES.deliverMessage} and data->>'messageId' = ${heldAtAcceptance.messageId}`,
    );
    const jobs = (Array.isArray(rows) ? rows : (rows as unknown as { rows: unknown[] }).rows) as Array<{
      start_after: Date | string;
      data: DeliverMessageJob;
    }>;
    expect(jobs).toHaveLength(1);
    expect(new Date(jobs[0].start_after).toISOString()).toBe(AT.toISOString());
    expect(jobs[0].data.scheduledAt).toBe(AT.toISOString());

    // Its time comes while the workspace is paused again: held, then sent once after the resume.
    await pauseSending({ workspaceId: workspace.id, actor: AUDIT_SYSTEM_ACTOR });
    const provider = networkProvider();
    await deliverMessage(jobs[0].data, { attempt: 0, provider });
    expect((await readMessageState(heldAtAcceptance.messageId)).message.status).toBe("PAUSED");
    await resumeSending({ workspaceId: workspace.id, actor: AUDIT_SYSTEM_ACTOR });
    await deliverMessage(jobs[0].data, { attempt: 0, provider });
    await deliverMessage(jobs[0].data, { attempt: 1, provider });
    expect(provider.sent).toEqual([heldAtAcceptance.messageId]);
  });

  it("goes out once, through the real queue and worker, when its time passed while no worker ran", async () => {
    const { workspace } = await createTestWorkspace();
    const job = await schedule(workspace.id);
    await getQueue();
    await makeDue(job.messageId);
    setClock(() => new Date(AT.getTime() + 60_000));
    await startWorkers({ pollingIntervalSeconds: 0.5 });
    try {
      await waitFor(async () => (await readMessageState(job.messageId)).message.status === "SUCCEEDED", {
        what: "the scheduled message to be delivered",
      });
    } finally {
      await stopWorkers();
    }
    const db = await getDb();
    expect(await db.select().from(localInbox).where(eq(localInbox.emailMessageId, job.messageId))).toHaveLength(1);
    expect((await codes(job.messageId)).filter((code) => code === "EMAIL_MESSAGE_SENT_PROVIDER_EVENT")).toHaveLength(1);
  });
});
