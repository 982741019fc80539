import "server-only";
import { and, inArray, isNotNull, sql } from "drizzle-orm";
import { getDb, type Db } from "@/db/client";
import { emailMessages, webhookDeliveries, webhookEndpoints, webhookEvents } from "@/db/schema";
import {
  inSpan,
  markSpanFailed,
  setSpanAttributes,
  SpanKind,
  tracingOn,
  type SpanOptions,
} from "@/lib/foundation/tracing";
import { env } from "@/lib/foundation/env";
import type { DeliverWebhookJob } from "@/lib/records/queue/jobs";
import { buildPayloads } from "./build-payloads";
import { recordAttempts, type AttemptOutcome, type ClaimedDelivery } from "./record-attempt";
import { systemClock, type Clock } from "./retry-schedule";
import { rowsOf } from "./rows";
import { sendWebhookRequest, REQUEST_TIMEOUT_MS } from "./send-webhook-request";
import { signedHeaders } from "./signing";
import { webhookUnrecordedGate } from "./unrecorded-gate";

/** A claim outlives the request's timeout and its recording; after it, a dead worker's delivery may be claimed again. */
const CLAIM_MS = REQUEST_TIMEOUT_MS + 20_000;
/** pg-boss may start a job a little before the delivery's time (clock skew between hosts). */
const EARLY_SLACK_MS = 1_000;

/**
 * One fetch of deliver-webhook jobs (docs/webhooks.md#delivery): claim the due deliveries first in line for their
 * endpoint and message, POST them within the per-endpoint limit, record the attempts together. Unclaimable: nothing.
 */
export async function attemptDeliveries(jobs: DeliverWebhookJob[], clock: Clock = systemClock): Promise<void> {
  const gate = webhookUnrecordedGate();
  const ids = [...new Set(jobs.map((job) => job.deliveryId))];
  // Each group is claimed only once it holds its gate slots (a claim never ages waiting) and recorded before giving them
  // back: the kill window's bound.
  const groups: string[][] = [];
  for (let start = 0; start < ids.length; start += gate.limit) groups.push(ids.slice(start, start + gate.limit));
  await Promise.all(groups.map((group) => gate.run(group.length, () => attemptGroup(group, clock))));
}

async function attemptGroup(ids: string[], clock: Clock): Promise<void> {
  const claimed = await claimDeliveries(ids, clock.now());
  if (claimed.length === 0) return;
  const db = await getDb();
  const [endpoints, events] = await Promise.all([
    db
      .select()
      .from(webhookEndpoints)
      .where(inArray(webhookEndpoints.id, [...new Set(claimed.map((row) => row.endpointId))])),
    db
      .select()
      .from(webhookEvents)
      .where(inArray(webhookEvents.id, [...new Set(claimed.map((row) => row.eventId))])),
  ]);
  const payloads = await buildPayloads(db, events);
  const traces = await messageTraces(db, claimed);
  const endpointById = new Map(endpoints.map((row) => [row.id, row]));
  const outcomes = await Promise.all(
    claimed.map(async (delivery): Promise<AttemptOutcome> => {
      const endpoint = endpointById.get(delivery.endpointId);
      const payload = payloads.get(delivery.eventId);
      if (!endpoint?.enabled || payload === undefined) {
        const error = !endpoint?.enabled ? "the endpoint is disabled" : "the event is no longer kept";
        return {
          delivery,
          endpoint,
          at: clock.now(),
          response: { status: null, latencyMs: 0, body: null, error, ok: false },
          final: true,
        };
      }
      return withEndpointSlot(delivery.endpointId, async () => {
        const at = clock.now();
        const response = await inSpan("webhook attempt", attemptSpan(delivery, traces), async () => {
          const answer = await sendWebhookRequest(
            endpoint.url,
            signedHeaders(endpoint, delivery.eventId, payload, at),
            payload,
          );
          setSpanAttributes({ "http.response.status_code": answer.status ?? 0, "postwerk.webhook.ok": answer.ok });
          if (!answer.ok) markSpanFailed(answer.error ?? `answered ${answer.status}`);
          return answer;
        });
        return { delivery, endpoint, at, response };
      });
    }),
  );
  await recordAttempts(outcomes, clock);
}

/** With tracing on, the trace each delivery's message was accepted in: its attempts join it (docs/observability.md). */
async function messageTraces(db: Db, claimed: ClaimedDelivery[]): Promise<Map<string, string>> {
  const ids = [...new Set(claimed.flatMap((row) => (row.emailMessageId ? [row.emailMessageId] : [])))];
  if (!tracingOn() || ids.length === 0) return new Map();
  const rows = await db
    .select({ id: emailMessages.id, traceParent: emailMessages.traceParent })
    .from(emailMessages)
    .where(and(inArray(emailMessages.id, ids), isNotNull(emailMessages.traceParent)));
  return new Map(rows.map((row) => [row.id, row.traceParent!]));
}

function attemptSpan(delivery: ClaimedDelivery, traces: Map<string, string>): SpanOptions {
  return {
    kind: SpanKind.CLIENT,
    parent: delivery.emailMessageId ? (traces.get(delivery.emailMessageId) ?? null) : null,
    attributes: {
      "postwerk.workspace_id": delivery.workspaceId,
      "postwerk.webhook.endpoint_id": delivery.endpointId,
      "postwerk.webhook.delivery_id": delivery.id,
      "postwerk.webhook.event_type": delivery.eventType,
      "postwerk.attempt": delivery.attempts,
    },
  };
}

/** One statement: the deliveries among `ids` that may go now, marked sending, their attempt counted. */
async function claimDeliveries(ids: string[], now: Date): Promise<ClaimedDelivery[]> {
  if (ids.length === 0) return [];
  const db = await getDb();
  const nowIso = now.toISOString();
  const claimedIds = rowsOf<{ id: string }>(
    await db.execute(sql`
      update webhook_deliveries d set status = 'sending', attempts = d.attempts + 1,
        locked_until = ${new Date(now.getTime() + CLAIM_MS).toISOString()}::timestamptz, updated_at = ${nowIso}::timestamptz
      where ${inArray(sql`d.id`, ids)}
        and (d.status = 'pending' or (d.status = 'sending' and d.locked_until < ${nowIso}::timestamptz))
        and d.next_attempt_at <= ${new Date(now.getTime() + EARLY_SLACK_MS).toISOString()}::timestamptz
        and not exists (select 1 from webhook_deliveries p where p.endpoint_id = d.endpoint_id
          and p.email_message_id = d.email_message_id and p.event_seq < d.event_seq and p.status in ('pending', 'sending'))
      returning d.id`),
  ).map((row) => row.id);
  if (claimedIds.length === 0) return [];
  return db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, claimedIds));
}

const slots = new Map<string, { active: number; waiting: Array<() => void> }>();

async function withEndpointSlot<T>(endpointId: string, work: () => Promise<T>): Promise<T> {
  let slot = slots.get(endpointId);
  if (!slot) slots.set(endpointId, (slot = { active: 0, waiting: [] }));
  // A finishing request hands its slot straight to the next in line, so a newcomer cannot slip in between.
  if (slot.active >= env().WEBHOOK_ENDPOINT_CONCURRENCY)
    await new Promise<void>((resolve) => slot!.waiting.push(resolve));
  else slot.active++;
  try {
    return await work();
  } finally {
    const next = slot.waiting.shift();
    if (next) next();
    else if (--slot.active === 0) slots.delete(endpointId);
  }
}
