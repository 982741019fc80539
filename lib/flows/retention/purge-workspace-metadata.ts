import "server-only";
import { and, asc, eq, inArray, lt, notInArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { walkOldestFirst } from "@/db/oldest-first";
import {
  batches,
  emailMessages,
  inboundMessages,
  inboundThreads,
  webhookAttempts,
  webhookDeliveries,
  webhookEvents,
  workflowRuns,
} from "@/db/schema";
import { removeAttachmentBytes } from "@/lib/domain/inbound/erase-inbound-content";

/** Rows per transaction: short enough that a large backlog never holds locks or a snapshot for long. */
export const METADATA_PURGE_CHUNK = 500;

export interface MetadataPurged {
  messages: number;
  inboundMessages: number;
  threads: number;
  webhookEvents: number;
  webhookDeliveries: number;
  webhookAttempts: number;
  batches: number;
  workflowRuns: number;
}

/**
 * Deletes one workspace's rows created before `cutoff`, oldest first, METADATA_PURGE_CHUNK per transaction, each
 * table through an index that leads with the workspace or the time (docs/retention.md#what-is-purged-when). A message
 * still waiting for delivery stays, whatever its age. Each table goes by its own creation time: a message's events
 * and webhook rows are never older than the message, so none outlives it.
 */
export async function purgeWorkspaceMetadata(db: Db, workspaceId: string, cutoff: Date): Promise<MetadataPurged> {
  return {
    messages: await purgeMessages(db, workspaceId, cutoff),
    inboundMessages: await purgeInbound(db, workspaceId, cutoff),
    threads: await purgeThreads(db, workspaceId, cutoff),
    webhookEvents: await purgeWebhookEvents(db, workspaceId, cutoff),
    webhookDeliveries: await purgeWebhookDeliveries(db, workspaceId, cutoff),
    webhookAttempts: await purgeWebhookAttempts(db, workspaceId, cutoff),
    // After the messages: a batch or a run goes only once none of its messages is left.
    batches: await purgeBatches(db, workspaceId, cutoff),
    workflowRuns: await purgeWorkflowRuns(db, workspaceId, cutoff),
  };
}

/** A message row takes its timeline (opens and clicks included), recipients and local inbox copy along (foreign keys and triggers). */
async function purgeMessages(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const m = emailMessages;
  const due = and(
    eq(m.workspaceId, workspaceId),
    lt(m.createdAt, cutoff),
    notInArray(m.status, ["PENDING", "PAUSED"]),
  )!;
  return walkOldestFirst(
    { db, table: m, createdAt: m.createdAt, id: m.id, where: due, chunk: METADATA_PURGE_CHUNK },
    (ids) =>
      db.transaction(async (tx) => {
        // Deliveries name their message without a key: removed with it (webhook_deliveries_message_idx); attempts cascade.
        await tx
          .delete(webhookDeliveries)
          .where(and(eq(webhookDeliveries.workspaceId, workspaceId), inArray(webhookDeliveries.emailMessageId, ids)));
        const gone = await tx
          .delete(m)
          .where(and(inArray(m.id, ids), due))
          .returning({ id: m.id });
        return gone.length;
      }),
  );
}

/** Inbound mail with its raw bytes (cascade); its attachments' bytes leave the storage after the commit. */
async function purgeInbound(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const m = inboundMessages;
  const due = and(eq(m.workspaceId, workspaceId), lt(m.createdAt, cutoff))!;
  return walkOldestFirst(
    { db, table: m, createdAt: m.createdAt, id: m.id, where: due, chunk: METADATA_PURGE_CHUNK },
    async (ids) => {
      const gone = await db
        .delete(m)
        .where(and(inArray(m.id, ids), due))
        .returning({ attachments: m.attachments });
      await removeAttachmentBytes(gone.flatMap((row) => row.attachments.map((a) => a.storageKey)));
      return gone.length;
    },
  );
}

/** A thread quiet since the cutoff whose mails are all gone, inbound and sent (inbound_threads_activity_idx). */
async function purgeThreads(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const t = inboundThreads;
  return inChunks(async () => {
    const due = db
      .select({ id: t.id })
      .from(t)
      .where(
        and(
          eq(t.workspaceId, workspaceId),
          lt(t.lastMessageAt, cutoff),
          sql`not exists (select 1 from ${inboundMessages} i where i.thread_id = ${t.id})`,
          sql`not exists (select 1 from ${emailMessages} e where e.thread_id = ${t.id})`,
        ),
      )
      .orderBy(asc(t.lastMessageAt), asc(t.id))
      .limit(METADATA_PURGE_CHUNK);
    return (await db.delete(t).where(inArray(t.id, due)).returning({ id: t.id })).length;
  });
}

/** The event feed's rows (webhook_events_created_idx); an event a delivery still waits on stays. */
async function purgeWebhookEvents(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const e = webhookEvents;
  return inChunks(async () => {
    const due = db
      .select({ seq: e.seq })
      .from(e)
      .where(
        and(
          eq(e.workspaceId, workspaceId),
          lt(e.createdAt, cutoff),
          sql`not exists (select 1 from ${webhookDeliveries} d where d.event_id = ${e.id} and d.status in ('pending', 'sending'))`,
        ),
      )
      .orderBy(asc(e.createdAt))
      .limit(METADATA_PURGE_CHUNK);
    return (await db.delete(e).where(inArray(e.seq, due)).returning({ seq: e.seq })).length;
  });
}

/** Settled deliveries of events without a message (workflow runs, inbound mail); their attempts cascade. */
async function purgeWebhookDeliveries(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const d = webhookDeliveries;
  return inChunks(async () => {
    const due = db
      .select({ id: d.id })
      .from(d)
      .where(and(eq(d.workspaceId, workspaceId), lt(d.createdAt, cutoff), inArray(d.status, ["succeeded", "failed"])))
      .limit(METADATA_PURGE_CHUNK);
    return (await db.delete(d).where(inArray(d.id, due)).returning({ id: d.id })).length;
  });
}

/** Attempts past the window of a delivery that stays (still pending): what was sent and answered goes. */
async function purgeWebhookAttempts(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const a = webhookAttempts;
  return inChunks(async () => {
    const due = db
      .select({ id: a.id })
      .from(a)
      .where(and(eq(a.workspaceId, workspaceId), lt(a.createdAt, cutoff)))
      .orderBy(asc(a.createdAt))
      .limit(METADATA_PURGE_CHUNK);
    return (await db.delete(a).where(inArray(a.id, due)).returning({ id: a.id })).length;
  });
}

/** Batches past the window whose messages are all gone (batches_workspace_created_idx, then the messages' batch index). */
async function purgeBatches(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const b = batches;
  return inChunks(async () => {
    const due = db
      .select({ id: b.id })
      .from(b)
      .where(
        and(
          eq(b.workspaceId, workspaceId),
          lt(b.createdAt, cutoff),
          sql`not exists (select 1 from ${emailMessages} e where e.batch_id = ${b.id})`,
        ),
      )
      .orderBy(asc(b.createdAt), asc(b.id))
      .limit(METADATA_PURGE_CHUNK);
    return (await db.delete(b).where(inArray(b.id, due)).returning({ id: b.id })).length;
  });
}

/** Finished workflow runs past the window whose messages are all gone; a run still waiting for a step stays. */
async function purgeWorkflowRuns(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const r = workflowRuns;
  return inChunks(async () => {
    const due = db
      .select({ id: r.id })
      .from(r)
      .where(
        and(
          eq(r.workspaceId, workspaceId),
          lt(r.createdAt, cutoff),
          notInArray(r.status, ["RUNNING"]),
          sql`not exists (select 1 from ${emailMessages} e where e.workflow_run_id = ${r.id})`,
        ),
      )
      .orderBy(asc(r.createdAt), asc(r.id))
      .limit(METADATA_PURGE_CHUNK);
    return (await db.delete(r).where(inArray(r.id, due)).returning({ id: r.id })).length;
  });
}

/** Runs one chunked delete (its own short transaction) until a chunk comes back short. */
async function inChunks(deleteChunk: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const count = await deleteChunk();
    total += count;
    if (count < METADATA_PURGE_CHUNK) return total;
  }
}
