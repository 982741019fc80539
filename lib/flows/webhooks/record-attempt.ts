import "server-only";
import { sql } from "drizzle-orm";
import { webhookAttempts, type webhookDeliveries, type webhookEndpoints } from "@/db/schema";
import { insertJsonRows } from "@/db/insert-json-rows";
import { wellFormedJson } from "@/db/well-formed-json";
import { newId } from "@/lib/foundation/ids";
import { enqueueWebhookDeliveries, queueTransaction } from "@/lib/records/queue/queue";
import type { Tx } from "@/db/client";
import { clearEndpointFailures, countEndpointFailure, mailOwnersAboutDisabled } from "./auto-disable";
import { nextAttemptAt, type Clock } from "./retry-schedule";
import { rowsOf } from "./rows";
import type { WebhookResponse } from "./send-webhook-request";

export type ClaimedDelivery = typeof webhookDeliveries.$inferSelect;

export interface AttemptOutcome {
  delivery: ClaimedDelivery;
  endpoint: typeof webhookEndpoints.$inferSelect | undefined;
  response: WebhookResponse;
  at: Date;
  /** No retry whatever the answer (the endpoint is disabled, the event gone). */
  final?: boolean;
}

/**
 * One fetch's attempts in ONE set-based transaction: log rows, each delivery's next state (with its retry job), the
 * endpoints' failure counters, and the job of the next event that waited behind each settled delivery.
 */
export async function recordAttempts(outcomes: AttemptOutcome[], clock: Clock): Promise<void> {
  if (outcomes.length === 0) return;
  const rows = outcomes.map((outcome) => {
    const { delivery, endpoint, response, final } = outcome;
    const retryAt =
      response.ok || final || !endpoint
        ? null
        : nextAttemptAt(delivery.attempts, { now: () => outcome.at, random: clock.random });
    return { outcome, retryAt, status: response.ok ? "succeeded" : retryAt ? "pending" : "failed" };
  });
  const disabled = await queueTransaction(async (tx) => {
    await insertJsonRows(
      tx,
      webhookAttempts,
      rows.map(({ outcome: { delivery, response, at } }) => ({
        id: newId("webhookAttempt", at),
        workspaceId: delivery.workspaceId,
        deliveryId: delivery.id,
        endpointId: delivery.endpointId,
        attempt: delivery.attempts,
        status: response.status,
        latencyMs: response.latencyMs,
        responseBody: response.body,
        error: response.error,
        createdAt: at,
      })),
    );
    await updateDeliveries(tx, rows);
    const jobOf = (delivery: ClaimedDelivery) => ({
      workspaceId: delivery.workspaceId,
      endpointId: delivery.endpointId,
      deliveryId: delivery.id,
    });
    const retries = rows
      .filter((row) => row.retryAt)
      .map((row) => ({ data: jobOf(row.outcome.delivery), startAfter: row.retryAt! }));
    await enqueueWebhookDeliveries(tx, retries);
    await enqueueNextInLine(
      tx,
      rows.filter((row) => !row.retryAt).map((row) => row.outcome.delivery),
    );
    return countEndpoints(tx, rows);
  });
  for (const [endpointId, reason] of disabled) await mailOwnersAboutDisabled(endpointId, reason);
}

type Row = { outcome: AttemptOutcome; retryAt: Date | null; status: string };

async function updateDeliveries(tx: Tx, rows: Row[]): Promise<void> {
  const input = rows.map(({ outcome: { delivery, response, at }, retryAt, status }) => ({
    id: delivery.id,
    status,
    next_attempt_at: (retryAt ?? delivery.nextAttemptAt).toISOString(),
    at: at.toISOString(),
    last_status: response.status,
    latency: response.latencyMs,
    error: response.error,
  }));
  await tx.execute(sql`
    update webhook_deliveries d set status = i.status, next_attempt_at = i.next_attempt_at, locked_until = null, last_attempt_at = i.at,
      last_status = i.last_status, last_latency_ms = i.latency, last_error = i.error, updated_at = i.at
    from json_to_recordset(${wellFormedJson(input)}::json) as i(id text, status text, next_attempt_at timestamptz, at timestamptz, last_status int, latency int, error text)
    where d.id = i.id`);
}

async function enqueueNextInLine(tx: Tx, settled: ClaimedDelivery[]): Promise<void> {
  const chained = settled.filter((delivery) => delivery.emailMessageId);
  if (chained.length === 0) return;
  const input = chained.map((delivery) => ({
    endpoint_id: delivery.endpointId,
    message_id: delivery.emailMessageId,
    seq: delivery.eventSeq,
  }));
  const next = rowsOf<{ id: string; workspace_id: string; endpoint_id: string; next_ms: string }>(
    await tx.execute(sql`
      select n.id, n.workspace_id, n.endpoint_id, round(extract(epoch from n.next_attempt_at) * 1000)::bigint as next_ms from json_to_recordset(${wellFormedJson(input)}::json) as i(endpoint_id text, message_id text, seq bigint)
      cross join lateral (select d.id, d.workspace_id, d.endpoint_id, d.next_attempt_at from webhook_deliveries d
        where d.endpoint_id = i.endpoint_id and d.email_message_id = i.message_id and d.event_seq > i.seq and d.status = 'pending'
        order by d.event_seq limit 1) n`),
  );
  const unique = new Map(next.map((row) => [row.id, row]));
  await enqueueWebhookDeliveries(
    tx,
    [...unique.values()].map((row) => ({
      data: { workspaceId: row.workspace_id, endpointId: row.endpoint_id, deliveryId: row.id },
      startAfter: new Date(Number(row.next_ms)),
    })),
  );
}

/** A success ends a failing streak, failures count toward auto-disable; returns the endpoints disabled now, with why. */
async function countEndpoints(tx: Tx, rows: Row[]): Promise<Map<string, string>> {
  const disabled = new Map<string, string>();
  const byEndpoint = new Map<string, Row[]>();
  for (const row of rows) {
    if (!row.outcome.endpoint || row.outcome.final) continue;
    byEndpoint.set(row.outcome.endpoint.id, [...(byEndpoint.get(row.outcome.endpoint.id) ?? []), row]);
  }
  for (const [endpointId, endpointRows] of byEndpoint) {
    const endpoint = endpointRows[0].outcome.endpoint!;
    const last = endpointRows[endpointRows.length - 1];
    if (endpointRows.some((row) => row.outcome.response.ok)) {
      if (endpoint.failingSince || endpoint.consecutiveFailures) await clearEndpointFailures(tx, endpointId);
      continue;
    }
    const failedDeliveries = endpointRows.filter((row) => row.status === "failed").length;
    const reason = await countEndpointFailure(tx, endpointId, last.outcome.at, failedDeliveries);
    if (reason) disabled.set(endpointId, reason);
  }
  return disabled;
}
