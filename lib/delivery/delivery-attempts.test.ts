import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getQueue, QUEUES, type DeliverMessageJob } from "@/lib/records/queue/queue";
import { startWorkers, stopWorkers } from "@/lib/entry/worker/worker";
import { createTestWorkspace, insertTestMessage, readMessageState } from "@/lib/testing/fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { enqueueDelivery, queueTransaction } from "@/lib/records/queue/queue";
import { forgetDkimKeys } from "./mime/dkim-keys";
import { closeSmtpTransport } from "./providers/smtp/smtp-provider";
import { useSettings as applySettings } from "@/lib/testing/settings";
import { waitFor } from "@/lib/testing/wait-for";

/**
 * "Transient rejections (4xx, timeouts) are retried with exponential backoff and jitter, then FAILED
 * after a configurable number of attempts": DELIVERY_MAX_ATTEMPTS through the real queue and workers,
 * against an SMTP server that answers every DATA with 421.
 */
const ATTEMPTS = 3;
const keys = ["DELIVERY_PROVIDER", "SMTP_URL", "DELIVERY_MAX_ATTEMPTS"] as const;
const saved = Object.fromEntries(keys.map((key) => [key, process.env[key]]));
let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink({ responder: () => ({ code: 421, message: "4.3.2 Try again later" }) });
  // Set before the queue is first installed in this process: the queue's options are read then.
  applySettings({ DELIVERY_PROVIDER: "smtp", SMTP_URL: sink.url, DELIVERY_MAX_ATTEMPTS: String(ATTEMPTS) });
});

afterAll(async () => {
  await stopWorkers();
  closeSmtpTransport();
  await sink.close();
  applySettings(saved);
  forgetDkimKeys();
});

async function acceptMessages(workspaceId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await insertTestMessage(workspaceId));
  await queueTransaction(async (tx) => {
    for (const messageId of ids) await enqueueDelivery(tx, { workspaceId, messageId });
  });
  return ids;
}

async function jobOf(messageId: string) {
  const boss = await getQueue();
  const [job] = await boss.findJobs<DeliverMessageJob>(QUEUES.deliverMessage, { data: { messageId } });
  return job;
}

describe("delivery attempts (DELIVERY_MAX_ATTEMPTS)", () => {
  it("installs the queue with attempts − 1 retries and jittered exponential backoff", async () => {
    const queue = await (await getQueue()).getQueue(QUEUES.deliverMessage);
    expect(queue).toMatchObject({ retryLimit: ATTEMPTS - 1, retryBackoff: true, retryDelay: 5, retryDelayMax: 600 });

    const { workspace } = await createTestWorkspace();
    const ids = await acceptMessages(workspace.id, 4);
    await startWorkers({ pollingIntervalSeconds: 0.5 });
    try {
      await waitFor(async () => (await Promise.all(ids.map(jobOf))).every((job) => job.state === "retry"), {
        what: "every job to wait for its retry",
      });
    } finally {
      await stopWorkers();
    }
    const seenAt = Date.now();
    const jobs = await Promise.all(ids.map(jobOf));
    // After the first failure: 5 s · 2^0 · (1 + random()), so 5 to 10 s after the failure, which came
    // after the attempt started and before the test saw the job waiting.
    for (const job of jobs) {
      expect(job.startAfter.getTime() - job.startedOn!.getTime()).toBeGreaterThanOrEqual(5_000);
      expect(job.startAfter.getTime() - seenAt).toBeLessThanOrEqual(10_000);
    }
    // Jitter: the same failure at nearly the same moment does not give one shared retry time.
    expect(new Set(jobs.map((job) => job.startAfter.getTime())).size).toBeGreaterThan(1);
    for (const job of jobs) expect(job).toMatchObject({ retryCount: 0, retryLimit: ATTEMPTS - 1 });
    await (
      await getQueue()
    ).cancel(
      QUEUES.deliverMessage,
      jobs.map((job) => job.id),
    );
  });

  it(`fails the message after exactly ${ATTEMPTS} attempts of 421, with the last reply on its timeline`, async () => {
    // The same retry limit; only the delay shrinks (pg-boss's backoff waits at least 1 s, 2 s, …).
    const boss = await getQueue();
    await boss.updateQueue(QUEUES.deliverMessage, { retryBackoff: false, retryDelay: 0 });
    // Re-primes the queue cache the update cleared (see installQueue: on PGlite a miss inside the
    // accepting transaction would wait for itself).
    await boss.getJobById(QUEUES.deliverMessage, "00000000-0000-0000-0000-000000000000");
    const { workspace } = await createTestWorkspace();
    const [messageId] = await acceptMessages(workspace.id, 1);
    await startWorkers({ pollingIntervalSeconds: 0.5 });
    try {
      await waitFor(async () => (await readMessageState(messageId)).message.status === "FAILED", {
        what: "the message to fail",
      });
      // The last attempt records the failure and settles its job: nothing is left to retry.
      await waitFor(async () => (await jobOf(messageId)).state === "completed", { what: "its job to complete" });
    } finally {
      await stopWorkers();
    }
    expect(sink.attempts.get(`<${messageId}@example.com>`)).toBe(ATTEMPTS);
    expect(sink.messages).toHaveLength(0);
    const { message, events } = await readMessageState(messageId);
    expect(message.erroredAt).not.toBeNull();
    expect(message.sentAt).toBeNull();
    expect(events.map((event) => [event.code, event.message])).toEqual([
      ...[1, 2].map((attempt) => [
        "EMAIL_MESSAGE_ATTEMPT_FAILED",
        `Attempt ${attempt} through the SMTP relay 127.0.0.1 failed: 421 4.3.2 Try again later. It is tried again later.`,
      ]),
      [
        "EMAIL_MESSAGE_PROVIDER_ERROR",
        `The SMTP relay 127.0.0.1 did not take the message after ${ATTEMPTS} attempts: 421 4.3.2 Try again later`,
      ],
    ]);
    expect(await jobOf(messageId)).toMatchObject({ state: "completed", retryCount: ATTEMPTS - 1 });
  });
});
