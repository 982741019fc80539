import { eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import {
  batches,
  dmarcReports,
  domains,
  emailMessageLogs,
  emailMessageRecipients,
  emailMessages,
  inboundMessages,
  inboundThreads,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
  workflowRuns,
  workspaces,
} from "@/db/schema";
import { insertTestInboundMessage } from "@/lib/domain/inbound/testing";
import { idTime, newId } from "@/lib/foundation/ids";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { insertTestMessage } from "@/lib/testing/fixtures";

/** Tests only: a workspace's stored windows and hold, as PATCH /v1/workspace would set them. */
export async function setRetention(
  workspaceId: string,
  values: { bodyRetentionDays?: number | null; metadataRetentionDays?: number | null; legalHold?: boolean },
) {
  const hold = values.legalHold === undefined ? {} : { legalHoldAt: values.legalHold ? new Date() : null };
  await (
    await getDb()
  )
    .update(workspaces)
    .set({ ...values, ...hold })
    .where(eq(workspaces.id, workspaceId));
}

/**
 * Tests only: what a workspace keeps about its mail, made now: a sent message with its timeline, recipients and a
 * webhook event delivered with one attempt; a message still waiting; an inbound mail in a thread; the sent one's
 * batch and finished workflow run, the waiting one's batch, and a run still waiting for its next step.
 */
export async function seedMail(workspaceId: string) {
  const db = await getDb();
  const [sentBatch, waitingBatch] = [newId("batch"), newId("batch")];
  await db.insert(batches).values([
    { id: sentBatch, workspaceId, sandbox: false, count: 1 },
    { id: waitingBatch, workspaceId, sandbox: false, count: 1 },
  ]);
  const [finishedRun, runningRun] = [newId("workflowRun"), newId("workflowRun")];
  await db.insert(workflowRuns).values([
    { id: finishedRun, workspaceId, sandbox: false, status: "COMPLETED" },
    { id: runningRun, workspaceId, sandbox: false, status: "RUNNING" },
  ]);
  const sent = await insertTestMessage(workspaceId, {
    status: "SUCCEEDED",
    sentAt: new Date(),
    batchId: sentBatch,
    batchIndex: 0,
    workflowRunId: finishedRun,
  });
  const waiting = await insertTestMessage(workspaceId, { status: "PENDING", batchId: waitingBatch, batchIndex: 0 });
  await recordEvent(db, { workspaceId, messageId: sent, code: "EMAIL_MESSAGE_SENT_PROVIDER_EVENT", message: "Sent." });
  const endpointId = newId("webhookEndpoint");
  await db
    .insert(webhookEndpoints)
    .values({ id: endpointId, workspaceId, url: "https://hooks.example.org", secretEncrypted: "x" });
  const eventId = newId("webhookEvent");
  const [event] = await db
    .insert(webhookEvents)
    .values({ id: eventId, workspaceId, type: "email.sent", emailMessageId: sent })
    .returning({ seq: webhookEvents.seq });
  const deliveryId = newId("webhookDelivery", idTime(eventId)!); // in its event's day, as the fan-out makes it
  await db.insert(webhookDeliveries).values({
    id: deliveryId,
    workspaceId,
    endpointId,
    eventId,
    eventSeq: event.seq,
    eventType: "email.sent",
    emailMessageId: sent,
    status: "succeeded",
  });
  await db.insert(webhookAttempts).values({
    id: newId("webhookAttempt"),
    workspaceId,
    deliveryId,
    endpointId,
    attempt: 1,
    status: 200,
    latencyMs: 5,
  });
  const threadId = newId("inboundThread");
  await db.insert(inboundThreads).values({ id: threadId, workspaceId, subjectKey: "a question" });
  const inbound = await insertTestInboundMessage(workspaceId, { threadId });
  await seedDmarcReport(workspaceId);
  return { sent, waiting, inbound: inbound.id, threadId };
}

/** A DMARC report of the last day for the workspace's first domain (its rows would go with it). */
async function seedDmarcReport(workspaceId: string) {
  const db = await getDb();
  const [domain] = await db.select({ id: domains.id }).from(domains).where(eq(domains.workspaceId, workspaceId));
  if (!domain) return;
  const day = 86_400_000;
  const [begin, end] = [new Date(Date.now() - day), new Date()];
  await db.insert(dmarcReports).values({
    id: newId("dmarcReport"),
    workspaceId,
    domainId: domain.id,
    orgName: "google.com",
    reportId: newId("dmarcReport"),
    beginAt: begin,
    endAt: end,
    policy: "none",
    messageCount: 1,
  });
}

/** Tests only: how many rows of each kind a workspace still holds. */
export async function rowsLeft(workspaceId: string) {
  const db = await getDb();
  const messageIds = (
    await db.select({ id: emailMessages.id }).from(emailMessages).where(eq(emailMessages.workspaceId, workspaceId))
  ).map((row) => row.id);
  const count = (table: Parameters<typeof db.$count>[0], column: Parameters<typeof eq>[0]) =>
    db.$count(table, eq(column, workspaceId));
  return {
    messages: messageIds.length,
    events:
      messageIds.length === 0
        ? 0
        : await db.$count(emailMessageLogs, inArray(emailMessageLogs.emailMessageId, messageIds)),
    recipients: await count(emailMessageRecipients, emailMessageRecipients.workspaceId),
    webhookEvents: await count(webhookEvents, webhookEvents.workspaceId),
    webhookDeliveries: await count(webhookDeliveries, webhookDeliveries.workspaceId),
    webhookAttempts: await count(webhookAttempts, webhookAttempts.workspaceId),
    inbound: await count(inboundMessages, inboundMessages.workspaceId),
    threads: await count(inboundThreads, inboundThreads.workspaceId),
    batches: await count(batches, batches.workspaceId),
    workflowRuns: await count(workflowRuns, workflowRuns.workspaceId),
    dmarcReports: await count(dmarcReports, dmarcReports.workspaceId),
  };
}
