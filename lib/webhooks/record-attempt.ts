import "server-only";
import { and, eq, gt, sql } from "drizzle-orm";
import { webhookAttempts, webhookDeliveries, type webhookEndpoints } from "@/db/schema";
import { newId } from "@/lib/ids";
import { enqueueWebhookDeliveries, queueTransaction } from "@/lib/queue/queue";
import type { Tx } from "@/db/client";
import { clearEndpointFailures, countEndpointFailure, mailOwnersAboutDisabled } from "./auto-disable";
import { nextAttemptAt, type Clock } from "./retry-schedule";
import type { WebhookResponse } from "./send-webhook-request";

export type ClaimedDelivery = typeof webhookDeliveries.$inferSelect;

export interface AttemptOutcome {
  delivery: ClaimedDelivery;
  endpoint: typeof webhookEndpoints.$inferSelect | undefined;
  response: WebhookResponse;
  clock: Clock;
  /** No retry whatever the answer (the endpoint is disabled, the event gone). */
  final?: boolean;
}

/**
 * Records one attempt in one transaction: the attempt's log row, the delivery's state (succeeded;
 * pending again at the schedule's next time, with its job; or failed after the last attempt), the
 * endpoint's failure counters (auto-disable), and, once the delivery is settled, the job of the next
 * event of the same message to the same endpoint that waited behind it.
 */
export async function recordAttempt({ delivery, endpoint, response, clock, final }: AttemptOutcome): Promise<void> {
  const now = clock.now();
  const retryAt = response.ok || final || !endpoint ? null : nextAttemptAt(delivery.attempts, clock);
  const status = response.ok ? "succeeded" : retryAt ? "pending" : "failed";
  const disabled = await queueTransaction(async (tx) => {
    await tx.insert(webhookAttempts).values({
      id: newId("webhookAttempt", now),
      workspaceId: delivery.workspaceId,
      deliveryId: delivery.id,
      endpointId: delivery.endpointId,
      attempt: delivery.attempts,
      status: response.status,
      latencyMs: response.latencyMs,
      responseBody: response.body,
      error: response.error,
      createdAt: now,
    });
    await tx
      .update(webhookDeliveries)
      .set({
        status,
        nextAttemptAt: retryAt ?? delivery.nextAttemptAt,
        lockedUntil: null,
        lastAttemptAt: now,
        lastStatus: response.status,
        lastLatencyMs: response.latencyMs,
        lastError: response.error,
        updatedAt: now,
      })
      .where(eq(webhookDeliveries.id, delivery.id));
    const job = { workspaceId: delivery.workspaceId, endpointId: delivery.endpointId, deliveryId: delivery.id };
    if (retryAt) await enqueueWebhookDeliveries(tx, [{ data: job, startAfter: retryAt }]);
    else await enqueueNextInLine(tx, delivery);
    if (!endpoint || final) return null;
    if (response.ok) {
      if (endpoint.failingSince || endpoint.consecutiveFailures) await clearEndpointFailures(tx, endpoint.id);
      return null;
    }
    return countEndpointFailure(tx, endpoint.id, now, status === "failed");
  });
  if (disabled) await mailOwnersAboutDisabled(delivery.endpointId, disabled);
}

/** The next pending delivery of the same message to the same endpoint, which waited for this one to settle. */
async function enqueueNextInLine(tx: Tx, delivery: ClaimedDelivery): Promise<void> {
  if (!delivery.emailMessageId) return;
  const d = webhookDeliveries;
  const [next] = await tx
    .select({ id: d.id, nextAttemptAt: d.nextAttemptAt })
    .from(d)
    .where(and(eq(d.endpointId, delivery.endpointId), eq(d.emailMessageId, delivery.emailMessageId), gt(d.eventSeq, delivery.eventSeq), sql`${d.status} = 'pending'`))
    .orderBy(d.eventSeq)
    .limit(1);
  if (!next) return;
  await enqueueWebhookDeliveries(tx, [
    { data: { workspaceId: delivery.workspaceId, endpointId: delivery.endpointId, deliveryId: next.id }, startAfter: next.nextAttemptAt },
  ]);
}
