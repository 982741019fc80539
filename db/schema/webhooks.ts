import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, jsonb, ts, updatedAt } from "./columns";
import { workspaces } from "./workspaces";

/** Where a workspace wants its events POSTed (docs/webhooks.md); during a secret rotation, deliveries carry both. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    /** The event types it wants; null: every type, including ones added later. */
    eventTypes: text("event_types").array(),
    enabled: boolean("enabled").notNull().default(true),
    /** Why the service disabled it (failing for days, or too many failures in a row); null when a person did. */
    disabledReason: text("disabled_reason"),
    secretEncrypted: text("secret_encrypted").notNull(),
    previousSecretEncrypted: text("previous_secret_encrypted"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    /** Since when every attempt has failed (null after any success): the 5-day auto-disable rule. */
    failingSince: ts("failing_since"),
    /** Deliveries in a row that exhausted their attempts: WEBHOOK_DISABLE_AFTER_FAILURES. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    createdBy: text("created_by"),
    updatedBy: text("updated_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_workspace_idx").on(t.workspaceId, t.createdAt, t.id)],
);

/**
 * Outbox and feed; readers take only rows older than every running transaction, so a late commit is not skipped.
 * Partitioned by day of `id` with its deliveries and attempts (migration 0027, docs/architecture.md#partitioned-by-day):
 * the unique key must hold the id, so `seq` (the order) is no key.
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    seq: bigserial("seq", { mode: "number" }).notNull(),
    id: text("id").notNull().unique(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    txId: bigint("tx_id", { mode: "number" })
      .notNull()
      .default(sql`(pg_current_xact_id()::text)::bigint`),
    type: text("type").notNull(),
    emailMessageId: text("email_message_id"),
    logId: text("log_id"),
    workflowRunId: text("workflow_run_id"),
    /** email.received and email.replied: the inbound mail (docs/inbound.md#webhooks). */
    inboundMessageId: text("inbound_message_id"),
    /** An event about no message or run (workspace.deliverability_warning): its payload's `data`, as raised. */
    data: jsonb("data").$type<Record<string, unknown>>(),
    bot: boolean("bot").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_events_feed_idx").on(t.workspaceId, t.txId, t.seq),
    index("webhook_events_order_idx").on(t.txId, t.seq),
    index("webhook_events_created_idx").on(t.createdAt),
  ],
);

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "sending", "succeeded", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * One event to one endpoint: its state and its last attempt (every attempt is in webhook_attempts). Its id is made at
 * its event's time, so it lies in its event's day partition.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    /** The event's seq: deliveries of one message to one endpoint go out in this order. */
    eventSeq: bigint("event_seq", { mode: "number" }).notNull(),
    eventType: text("event_type").notNull(),
    emailMessageId: text("email_message_id"),
    status: text("status", { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at").notNull().defaultNow(),
    /** While sending: a worker that died leaves this in the past, and the delivery may be claimed again. */
    lockedUntil: ts("locked_until"),
    lastAttemptAt: ts("last_attempt_at"),
    lastStatus: integer("last_status"),
    lastLatencyMs: integer("last_latency_ms"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("webhook_deliveries_chain_idx").on(t.endpointId, t.emailMessageId, t.eventSeq),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt, t.id),
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('pending', 'sending')`),
    index("webhook_deliveries_message_idx").on(t.workspaceId, t.emailMessageId),
  ],
);

/**
 * Every attempt, kept WEBHOOK_LOG_RETENTION_DAYS: what was sent, when, and what came back. Partitioned by its
 * delivery's id: each day's partition has its own primary key and its key to that day's deliveries.
 */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: text("id").notNull(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    deliveryId: text("delivery_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    attempt: integer("attempt").notNull(),
    /** HTTP status; null when no answer came (timeout, refused, closed, blocked target). */
    status: integer("status"),
    latencyMs: integer("latency_ms").notNull(),
    responseBody: text("response_body"),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_attempts_delivery_idx").on(t.deliveryId, t.createdAt),
    index("webhook_attempts_created_idx").on(t.createdAt),
  ],
);

/** The fan-out's position in webhook_events: one row (id 1), advanced under its row lock by one worker at a time. */
export const webhookDispatchState = pgTable("webhook_dispatch_state", {
  id: integer("id").primaryKey(),
  txId: bigint("tx_id", { mode: "number" }).notNull().default(0),
  seq: bigint("seq", { mode: "number" }).notNull().default(0),
  updatedAt: updatedAt(),
});
