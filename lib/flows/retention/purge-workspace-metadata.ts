import "server-only";
import { and, asc, eq, inArray, lt, notInArray, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { walkOldestFirst } from "@/db/oldest-first";
import {
  batches,
  dmarcReports,
  emailMessages,
  inboundDedupeKeys,
  inboundMessages,
  inboundThreads,
  webhookAttempts,
  webhookDeliveries,
  webhookEvents,
  workflowRuns,
} from "@/db/schema";
import { removeAttachmentBytes } from "@/lib/domain/inbound/erase-inbound-content";
import { MESSAGE_FAMILY } from "@/lib/records/partitions/family";
import { keyMadeBefore } from "@/lib/records/partitions/prune";

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
  dmarcReports: number;
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
    dmarcReports: await purgeDmarcReports(db, workspaceId, cutoff),
  };
}

/** A message row takes its timeline (opens and clicks included), recipients and local inbox copy along (foreign keys and triggers). */
async function purgeMessages(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const m = emailMessages;
  const due = and(
    eq(m.workspaceId, workspaceId),
    lt(m.createdAt, cutoff),
    keyMadeBefore(MESSAGE_FAMILY, m.id, cutoff), // leaves the later days' partitions out
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

/**
 * Inbound mail with its raw bytes (cascade); its attachments' bytes leave the storage after the commit. Then the dedupe
 * keys of the same window (inbound_dedupe_keys, a table of its own: their mails may have left by a dropped day).
 */
async function purgeInbound(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const purged = await purgeInboundMessages(db, workspaceId, cutoff);
  await purgeDedupeKeys(db, workspaceId, cutoff);
  return purged;
}

async function purgeInboundMessages(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
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

/** The keys past the window, METADATA_PURGE_CHUNK per statement (inbound_dedupe_keys_created_idx). */
async function purgeDedupeKeys(db: Db, workspaceId: string, cutoff: Date): Promise<void> {
  const k = inboundDedupeKeys;
  for (;;) {
    const gone = await db.execute(sql`
      delete from ${k} where (${k.workspaceId}, ${k.dedupeKey}) in (
        select ${k.workspaceId}, ${k.dedupeKey} from ${k}
        where ${k.workspaceId} = ${workspaceId} and ${k.createdAt} < ${cutoff.toISOString()}::timestamptz
        limit ${METADATA_PURGE_CHUNK})
      returning 1 as gone`);
    if (rowsOf(gone).length < METADATA_PURGE_CHUNK) return;
  }
}

/** A thread quiet since the cutoff whose mails are all gone, inbound and sent (inbound_threads_activity_idx). */
function purgeThreads(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const t = inboundThreads;
  const due = and(
    eq(t.workspaceId, workspaceId),
    lt(t.lastMessageAt, cutoff),
    sql`not exists (select 1 from ${inboundMessages} i where i.thread_id = ${t.id})`,
    sql`not exists (select 1 from ${emailMessages} e where e.thread_id = ${t.id})`,
  )!;
  return deleteInChunks(db, { table: t, key: t.id, due, order: [t.lastMessageAt, t.id] });
}

/** The event feed's rows (webhook_events_created_idx); an event a delivery still waits on stays. */
function purgeWebhookEvents(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const e = webhookEvents;
  const due = and(
    eq(e.workspaceId, workspaceId),
    lt(e.createdAt, cutoff),
    sql`not exists (select 1 from ${webhookDeliveries} d where d.event_id = ${e.id} and d.status in ('pending', 'sending'))`,
  )!;
  return deleteInChunks(db, { table: e, key: e.seq, due, order: [e.createdAt] });
}

/** Settled deliveries of events without a message (workflow runs, inbound mail); their attempts cascade. */
function purgeWebhookDeliveries(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const d = webhookDeliveries;
  const due = and(eq(d.workspaceId, workspaceId), lt(d.createdAt, cutoff), inArray(d.status, ["succeeded", "failed"]))!;
  return deleteInChunks(db, { table: d, key: d.id, due, order: [] });
}

/** Attempts past the window of a delivery that stays (still pending): what was sent and answered goes. */
function purgeWebhookAttempts(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const a = webhookAttempts;
  const due = and(eq(a.workspaceId, workspaceId), lt(a.createdAt, cutoff))!;
  return deleteInChunks(db, { table: a, key: a.id, due, order: [a.createdAt] });
}

/** Batches past the window whose messages are all gone (batches_workspace_created_idx, then the messages' batch index). */
function purgeBatches(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const b = batches;
  const due = and(
    eq(b.workspaceId, workspaceId),
    lt(b.createdAt, cutoff),
    sql`not exists (select 1 from ${emailMessages} e where e.batch_id = ${b.id})`,
  )!;
  return deleteInChunks(db, { table: b, key: b.id, due, order: [b.createdAt, b.id] });
}

/** Finished workflow runs past the window whose messages are all gone; a run still waiting for a step stays. */
function purgeWorkflowRuns(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const r = workflowRuns;
  const due = and(
    eq(r.workspaceId, workspaceId),
    lt(r.createdAt, cutoff),
    notInArray(r.status, ["RUNNING"]),
    sql`not exists (select 1 from ${emailMessages} e where e.workflow_run_id = ${r.id})`,
  )!;
  return deleteInChunks(db, { table: r, key: r.id, due, order: [r.createdAt, r.id] });
}

/** DMARC reports whose period ended before the window (their rows go along, by foreign key). */
function purgeDmarcReports(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  const r = dmarcReports;
  const due = and(eq(r.workspaceId, workspaceId), lt(r.endAt, cutoff))!;
  return deleteInChunks(db, { table: r, key: r.id, due, order: [] });
}

interface ChunkedDelete {
  table: PgTable;
  /** The column a chunk's rows are named by (the primary key). */
  key: PgColumn;
  due: SQL;
  /** Oldest first, through the index the comment of each purge names; empty where any order does. */
  order: PgColumn[];
}

/** Deletes the due rows METADATA_PURGE_CHUNK per statement (each its own short transaction) until none is left. */
async function deleteInChunks(db: Db, { table, key, due, order }: ChunkedDelete): Promise<number> {
  let total = 0;
  for (;;) {
    const chunk = db
      .select({ key })
      .from(table)
      .where(due)
      .orderBy(...order.map((column) => asc(column)))
      .limit(METADATA_PURGE_CHUNK);
    const count = (await db.delete(table).where(inArray(key, chunk)).returning({ key })).length;
    total += count;
    if (count < METADATA_PURGE_CHUNK) return total;
  }
}
