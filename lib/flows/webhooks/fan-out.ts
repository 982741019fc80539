import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { insertJsonRows } from "@/db/insert-json-rows";
import { executePrepared } from "@/db/execute-prepared";
import { wellFormedJson } from "@/db/well-formed-json";
import { idTime, newId } from "@/lib/foundation/ids";
import { enqueueWebhookDeliveries, queueTransaction } from "@/lib/records/queue/queue";
import { TEST_EVENT_TYPE } from "./build-payloads";
import { rowsOf } from "./rows";

interface PendingEvent {
  seq: number;
  id: string;
  workspace_id: string;
  type: string;
  email_message_id: string | null;
  tx_id: number;
}

/**
 * Recorded events → one delivery per subscribed endpoint, with their jobs, in one transaction (docs/webhooks.md#delivery).
 * One worker at a time, reading only events of transactions older than every running one, so a late commit is never skipped.
 */
export async function fanOutWebhookEvents(limit = 1000, now = new Date()): Promise<number> {
  return queueTransaction(async (tx) => {
    const [state] = rowsOf<{ tx_id: string; seq: string }>(
      await tx.execute(sql`select tx_id, seq from webhook_dispatch_state where id = 1 for update skip locked`),
    );
    if (!state) return 0;
    const events = rowsOf<PendingEvent>(
      await tx.execute(sql`
        select seq, id, workspace_id, type, email_message_id, tx_id from webhook_events
        where (tx_id, seq) > (${Number(state.tx_id)}, ${Number(state.seq)})
          and tx_id < (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint
        order by tx_id, seq limit ${limit}`),
    );
    if (events.length === 0) return 0;
    await createDeliveries(
      tx,
      events.filter((event) => event.type !== TEST_EVENT_TYPE),
      now,
    );
    const last = events[events.length - 1];
    await tx.execute(
      sql`update webhook_dispatch_state set tx_id = ${Number(last.tx_id)}, seq = ${Number(last.seq)}, updated_at = now() where id = 1`,
    );
    return events.length;
  });
}

/**
 * A delivery's id, made at its event's time (not the fan-out's or a replay's): it lies in its event's day partition,
 * and its day leaves with the event's (docs/architecture.md#partitioned-by-day).
 */
export function deliveryIdOf(eventId: string): string {
  return newId("webhookDelivery", idTime(eventId) ?? new Date());
}

async function createDeliveries(tx: Tx, events: PendingEvent[], now: Date): Promise<void> {
  const workspaceIds = [...new Set(events.map((event) => event.workspace_id))];
  if (workspaceIds.length === 0) return;
  const e = webhookEndpoints;
  const endpoints = await tx
    .select({ id: e.id, workspaceId: e.workspaceId, eventTypes: e.eventTypes })
    .from(e)
    .where(and(inArray(e.workspaceId, workspaceIds), eq(e.enabled, true)));
  if (endpoints.length === 0) return;
  const rows: Array<typeof webhookDeliveries.$inferInsert> = [];
  for (const event of events) {
    for (const endpoint of endpoints) {
      if (endpoint.workspaceId !== event.workspace_id) continue;
      if (endpoint.eventTypes && !endpoint.eventTypes.includes(event.type)) continue;
      rows.push({
        id: deliveryIdOf(event.id),
        workspaceId: event.workspace_id,
        endpointId: endpoint.id,
        eventId: event.id,
        eventSeq: Number(event.seq),
        eventType: event.type,
        emailMessageId: event.email_message_id,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      });
    }
  }
  await insertDeliveries(tx, rows);
}

/** A delivery behind an earlier unsettled one of its message and endpoint gets no job: settling the earlier one enqueues it. */
export async function insertDeliveries(tx: Tx, rows: Array<typeof webhookDeliveries.$inferInsert>): Promise<void> {
  if (rows.length === 0) return;
  await insertJsonRows(tx, webhookDeliveries, rows);
  const held = await heldBehindEarlier(tx, rows);
  await enqueueWebhookDeliveries(
    tx,
    rows
      .filter((row) => !held.has(row.id!))
      .map((row) => ({ data: { workspaceId: row.workspaceId, endpointId: row.endpointId, deliveryId: row.id! } })),
  );
}

// The earlier ones are share-locked, so one settling concurrently is seen on one side or the other of this commit.
// SKIP LOCKED rather than wait, so this never deadlocks with settling; a spare job is harmless (the claim skips it).
async function heldBehindEarlier(tx: Tx, rows: Array<typeof webhookDeliveries.$inferInsert>): Promise<Set<string>> {
  const chained = rows.filter((row) => row.emailMessageId);
  if (chained.length === 0) return new Set();
  const input = chained.map((row) => ({
    id: row.id,
    endpoint_id: row.endpointId,
    message_id: row.emailMessageId,
    seq: row.eventSeq,
  }));
  const held = rowsOf<{ id: string }>(
    await executePrepared(
      tx,
      sql`with input as (select * from json_to_recordset(${wellFormedJson(input)}::json) as i(id text, endpoint_id text, message_id text, seq bigint)),
        earlier as (select p.endpoint_id, p.email_message_id, p.event_seq from webhook_deliveries p
          where (p.endpoint_id, p.email_message_id) in (select endpoint_id, message_id from input) and p.status in ('pending', 'sending')
          for share skip locked)
      select i.id from input i where exists (select 1 from earlier p
        where p.endpoint_id = i.endpoint_id and p.email_message_id = i.message_id and p.event_seq < i.seq)`,
    ),
  );
  return new Set(held.map((row) => row.id));
}

/** The safety net: due deliveries whose job is gone get one again; a duplicate job is harmless (the claim lets one through). */
export async function requeueStrandedDeliveries(now = new Date(), limit = 500): Promise<number> {
  return queueTransaction(async (tx) => {
    const stale = new Date(now.getTime() - 5 * 60_000).toISOString();
    const rows = rowsOf<{ id: string; workspace_id: string; endpoint_id: string }>(
      await tx.execute(sql`
        select d.id, d.workspace_id, d.endpoint_id from webhook_deliveries d
        where ((d.status = 'pending' and d.next_attempt_at < ${stale}::timestamptz)
            or (d.status = 'sending' and d.locked_until < ${now.toISOString()}::timestamptz))
          and not exists (select 1 from webhook_deliveries p where p.endpoint_id = d.endpoint_id
            and p.email_message_id = d.email_message_id and p.event_seq < d.event_seq and p.status in ('pending', 'sending'))
        limit ${limit}`),
    );
    await enqueueWebhookDeliveries(
      tx,
      rows.map((row) => ({ data: { workspaceId: row.workspace_id, endpointId: row.endpoint_id, deliveryId: row.id } })),
    );
    return rows.length;
  });
}
