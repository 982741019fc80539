import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages, localInbox } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { enqueueDelivery, getQueue } from "@/lib/records/queue/queue";
import { startWorkers, stopWorkers } from "@/lib/entry/worker/worker";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { waitFor } from "@/lib/testing/wait-for";
import type { DeliveryProvider, ProviderResult } from "./provider";

type NewMessage = Partial<typeof emailMessages.$inferInsert> & { workspaceId: string };

function messageRow(values: NewMessage): typeof emailMessages.$inferInsert {
  return {
    id: newId("message"),
    source: "API",
    sandbox: false,
    status: "PENDING",
    to: ["Ada <ada@example.org>"],
    cc: ["cc@example.org"],
    bcc: ["bcc@example.org"],
    from: "Acme <hello@example.com>",
    replyTo: "support@example.com",
    subject: "Hello",
    bodyHtml: "<p>Hi Ada</p>",
    bodyText: "Hi Ada",
    headers: { references: "<thread-1@example.com>" },
    ...values,
  };
}

async function insertMessage(values: NewMessage) {
  const row = messageRow(values);
  await (await getDb()).insert(emailMessages).values(row);
  return { workspaceId: row.workspaceId, messageId: row.id! };
}

const state = readMessageState;

const SENT = "EMAIL_MESSAGE_SENT_PROVIDER_EVENT";
const DELIVERED = "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT";

function fakeProvider(result: ProviderResult, transactional = false): DeliveryProvider & { calls: number } {
  return {
    name: "smtp",
    description: "the SMTP relay smtp.test",
    transactional,
    confirmsDelivery: false,
    calls: 0,
    async send() {
      this.calls++;
      return result;
    },
  };
}

describe("deliverMessage with the local provider", () => {
  it("delivers a message accepted with its job through the real queue and worker", async () => {
    const { workspace } = await createTestWorkspace();
    const db = await getDb();
    await getQueue(); // started before the transaction: on PGlite it shares the one connection
    const row = messageRow({ workspaceId: workspace.id });
    await db.transaction(async (tx) => {
      await tx.insert(emailMessages).values(row);
      await enqueueDelivery(tx, { workspaceId: workspace.id, messageId: row.id! });
    });
    await startWorkers({ pollingIntervalSeconds: 0.5 });
    await waitFor(async () => (await state(row.id!)).message.status === "SUCCEEDED", {
      what: "the worker to deliver the message",
    });
    // On PostgreSQL the queue is shared by the run's test files: stop taking their jobs.
    await stopWorkers();

    const { message, events, codes, inbox } = await state(row.id!);
    const messageIdHeader = `<${row.id}@example.com>`;
    expect(codes).toEqual([SENT, DELIVERED]);
    expect(events[0].message).toBe("Sent through the local inbox provider.");
    expect(events[1].message).toBe(`Delivered to the local inbox at ${message.deliveredAt!.toISOString()}.`);
    expect(message.sentAt!.getTime()).toBe(events[0].createdAt.getTime());
    expect(message.deliveredAt!.getTime()).toBe(events[1].createdAt.getTime());
    expect(message.sentAt!.getTime()).toBeLessThan(message.deliveredAt!.getTime());
    expect(message.referenceId).toBe(messageIdHeader);
    expect(inbox).toHaveLength(1);
    expect(inbox[0].mime).toContain(`Message-ID: ${messageIdHeader}`);
    expect(inbox[0].mime).toContain("References: <thread-1@example.com>");
    expect(inbox[0].mime).not.toContain("bcc@example.org");
    expect(inbox[0].envelopeFrom).toBe("hello@example.com");
    expect(inbox[0].envelopeTo).toEqual(["ada@example.org", "cc@example.org", "bcc@example.org"]);
  });

  it("is a no-op when run again or concurrently for the same message", async () => {
    const { workspace } = await createTestWorkspace();
    const once = await insertMessage({ workspaceId: workspace.id });
    await deliverMessage(once, { attempt: 0 });
    await deliverMessage(once, { attempt: 1 });
    const racing = await insertMessage({ workspaceId: workspace.id });
    await Promise.all([0, 1, 2].map((attempt) => deliverMessage(racing, { attempt })));

    for (const { messageId } of [once, racing]) {
      const { message, codes, inbox } = await state(messageId);
      expect(codes).toEqual([SENT, DELIVERED]);
      expect(inbox).toHaveLength(1);
      expect(message.status).toBe("SUCCEEDED");
    }
  });

  it("never hands a sandbox message to a provider", async () => {
    const { workspace } = await createTestWorkspace();
    const job = await insertMessage({ workspaceId: workspace.id, sandbox: true, source: "SANDBOX_API" });
    const provider = fakeProvider({ outcome: "accepted", referenceId: "x" });
    await deliverMessage(job, { attempt: 0 });
    await deliverMessage(job, { attempt: 0, provider });
    const { message, events, inbox } = await state(job.messageId);
    expect(provider.calls).toBe(0);
    expect(events).toHaveLength(0);
    expect(inbox).toHaveLength(0);
    expect(message.sentAt).toBeNull();
  });

  it("ignores a job naming another workspace", async () => {
    const { workspace } = await createTestWorkspace();
    const other = await createTestWorkspace();
    const job = await insertMessage({ workspaceId: workspace.id });
    await deliverMessage({ ...job, workspaceId: other.workspace.id }, { attempt: 0 });
    const { message, inbox } = await state(job.messageId);
    expect(message.status).toBe("PENDING");
    expect(inbox).toHaveLength(0);
  });

  it("fails a message whose sender domain is no longer verified", async () => {
    const { workspace } = await createTestWorkspace();
    const job = await insertMessage({ workspaceId: workspace.id, from: "Shop <shop@unverified.test>" });
    await deliverMessage(job, { attempt: 0 });
    const { message, events, inbox } = await state(job.messageId);
    expect(message.status).toBe("FAILED");
    expect(message.erroredAt).not.toBeNull();
    expect(events.map((event) => event.code)).toEqual(["EMAIL_MESSAGE_INVALID_SENDER_ERROR"]);
    expect(events[0].message).toContain("unverified.test");
    expect(inbox).toHaveLength(0);
  });
});

describe("deliverMessage with other provider outcomes", () => {
  it("records an accepted send of a network provider as SENT with its reference id", async () => {
    const { workspace } = await createTestWorkspace();
    const job = await insertMessage({ workspaceId: workspace.id });
    const provider = fakeProvider({ outcome: "accepted", referenceId: "provider-123" });
    await deliverMessage(job, { attempt: 0, provider });
    await deliverMessage(job, { attempt: 1, provider });
    const { message, events } = await state(job.messageId);
    expect(provider.calls).toBe(1);
    expect(events.map((event) => [event.code, event.message])).toEqual([
      [SENT, "Sent through the SMTP relay smtp.test."],
    ]);
    expect(message).toMatchObject({ status: "SUCCEEDED", referenceId: "provider-123", deliveredAt: null });
  });

  it("records a permanent rejection as FAILED with the diagnostic", async () => {
    const { workspace } = await createTestWorkspace();
    const job = await insertMessage({ workspaceId: workspace.id });
    const provider = fakeProvider({ outcome: "failed", diagnostic: "550 5.1.1 mailbox unknown" });
    await deliverMessage(job, { attempt: 0, provider });
    const { message, events } = await state(job.messageId);
    expect(message.status).toBe("FAILED");
    expect(events.map((event) => [event.code, event.message])).toEqual([
      ["EMAIL_MESSAGE_PROVIDER_ERROR", "The SMTP relay smtp.test rejected the message: 550 5.1.1 mailbox unknown"],
    ]);
  });

  it("throws on a transient failure so the queue retries, and fails the message on the last attempt", async () => {
    const { workspace } = await createTestWorkspace();
    const job = await insertMessage({ workspaceId: workspace.id });
    const provider = fakeProvider({ outcome: "retry", diagnostic: "421 try again later" }, true);
    await expect(deliverMessage(job, { attempt: 0, provider })).rejects.toThrow(/421 try again later/);
    expect((await state(job.messageId)).message.status).toBe("PENDING");
    // Said on the timeline, without a status change: the queue tries again.
    expect((await state(job.messageId)).events.map((event) => [event.code, event.message])).toEqual([
      [
        "EMAIL_MESSAGE_ATTEMPT_FAILED",
        "Attempt 1 through the SMTP relay smtp.test failed: 421 try again later. It is tried again later.",
      ],
    ]);

    await deliverMessage(job, { attempt: 8, lastAttempt: true, provider });
    const { message, events } = await state(job.messageId);
    expect(message.status).toBe("FAILED");
    expect(events.map((event) => event.message)).toEqual([
      "Attempt 1 through the SMTP relay smtp.test failed: 421 try again later. It is tried again later.",
      "The SMTP relay smtp.test did not take the message after 9 attempts: 421 try again later",
    ]);
    const db = await getDb();
    const left = await db
      .select()
      .from(localInbox)
      .where(and(eq(localInbox.workspaceId, workspace.id)));
    expect(left).toHaveLength(0);
  });
});
