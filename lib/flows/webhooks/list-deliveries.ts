import "server-only";
import { and, asc, eq, type SQL } from "drizzle-orm";
import { getDb } from "@/db/client";
import {
  webhookAttempts,
  webhookDeliveries,
  webhookEvents,
  WEBHOOK_DELIVERY_STATUSES,
  type WebhookDeliveryStatus,
} from "@/db/schema";
import { invalidParameter, notFound } from "@/lib/foundation/errors";
import { keysetPage } from "@/db/keyset";
import { parseKeysetPageQuery, type KeysetPageQuery } from "@/lib/foundation/pagination";
import { isWebhookEventType } from "@/lib/records/timeline/webhook-event-types.shared";
import { buildPayloadObjects } from "./build-payloads";
import { getEndpointOrThrow } from "./manage-endpoints";
import { serializeAttempt, serializeDelivery } from "./serialize";

/** The statuses a delivery goes through, for the log's filter. */
export const DELIVERY_STATUSES = WEBHOOK_DELIVERY_STATUSES;

export interface DeliveryListQuery extends KeysetPageQuery {
  status?: WebhookDeliveryStatus;
  eventType?: string;
  emailMessageId?: string;
}

export function parseDeliveryListQuery(params: URLSearchParams): DeliveryListQuery {
  const query: DeliveryListQuery = parseKeysetPageQuery(params, { maxLimit: 100 });
  const status = params.get("status");
  if (status) {
    if (!(WEBHOOK_DELIVERY_STATUSES as readonly string[]).includes(status)) {
      throw invalidParameter("status", `status must be one of ${WEBHOOK_DELIVERY_STATUSES.join(", ")}.`);
    }
    query.status = status as WebhookDeliveryStatus;
  }
  const eventType = params.get("eventType");
  if (eventType) {
    if (!isWebhookEventType(eventType) && eventType !== "webhook.test")
      throw invalidParameter("eventType", "eventType must be a webhook event type.");
    query.eventType = eventType;
  }
  const messageId = params.get("emailMessageId");
  if (messageId) {
    if (!/^em_[0-9A-Za-z]{16}$/.test(messageId))
      throw invalidParameter("emailMessageId", "emailMessageId must be an email message id.");
    query.emailMessageId = messageId;
  }
  return query;
}

export async function listDeliveries(workspaceId: string, endpointId: string, query: DeliveryListQuery) {
  await getEndpointOrThrow(workspaceId, endpointId);
  const d = webhookDeliveries;
  const filters: SQL[] = [];
  if (query.status) filters.push(eq(d.status, query.status));
  if (query.eventType) filters.push(eq(d.eventType, query.eventType));
  if (query.emailMessageId) filters.push(eq(d.emailMessageId, query.emailMessageId));
  const keyset = {
    db: await getDb(),
    table: d,
    createdAt: d.createdAt,
    id: d.id,
    scope: eq(d.endpointId, endpointId),
    filters,
  };
  return keysetPage<typeof d.$inferSelect>(keyset, query);
}

/** One delivery with its attempts and the payload the next attempt would send. */
export async function getDeliveryDetail(workspaceId: string, endpointId: string, deliveryId: string) {
  await getEndpointOrThrow(workspaceId, endpointId);
  const db = await getDb();
  const d = webhookDeliveries;
  const [delivery] = /^whdl_[0-9A-Za-z]{16}$/.test(deliveryId ?? "")
    ? await db
        .select()
        .from(d)
        .where(and(eq(d.workspaceId, workspaceId), eq(d.endpointId, endpointId), eq(d.id, deliveryId)))
    : [];
  if (!delivery) throw notFound("Webhook delivery", "deliveryId");
  const attempts = await db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, delivery.id))
    .orderBy(asc(webhookAttempts.attempt));
  const events = await db.select().from(webhookEvents).where(eq(webhookEvents.id, delivery.eventId));
  const payload = (await buildPayloadObjects(db, events)).get(delivery.eventId) ?? null;
  return { ...serializeDelivery(delivery), attemptLog: attempts.map(serializeAttempt), payload };
}
