import { sql } from "drizzle-orm";
import { boolean, index, integer, json, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, jsonb, ts, updatedAt } from "./columns";
import { templates } from "./templates";
import { workspaces } from "./workspaces";

export const MESSAGE_SOURCES = [
  "PREVIEW",
  "API",
  "SANDBOX_API",
  "WORKFLOW",
  "SANDBOX_WORKFLOW",
  "BATCH",
  "SANDBOX_BATCH",
] as const;
export type MessageSource = (typeof MESSAGE_SOURCES)[number];

/**
 * The door a message came in by, beside its Waypoint-compatible `source` (which says API for SMTP mail too):
 * docs/dashboard.md#how-it-was-sent. Null on rows from before it was recorded and for workflow steps.
 */
export const MESSAGE_DOORS = ["api", "smtp", "dashboard", "system"] as const;
export type MessageDoor = (typeof MESSAGE_DOORS)[number];

/** CANCELLED goes beyond the published enum: a scheduled (or still queued) message cancelled before its hand-off. */
export const MESSAGE_STATUSES = ["PENDING", "SUCCEEDED", "PAUSED", "FAILED", "DELETED", "CANCELLED"] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export interface StoredAttachment {
  name: string;
  contentType: string;
  size: number;
  cid?: string;
  /** Where the bytes are kept until delivery (inline content or an uploaded attachment). */
  attachmentId?: string;
  contentBase64?: string;
}

/** Partitioned by day: a range of ids is a range of creation time (docs/architecture.md#partitioned-by-day). */
export const emailMessages = pgTable(
  "email_messages",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    source: text("source", { enum: MESSAGE_SOURCES }).notNull(),
    /** Nullable, no default: rows from before it, and code from before it, leave it empty (docs/upgrading.md). */
    submittedVia: text("submitted_via", { enum: MESSAGE_DOORS }),
    sandbox: boolean("sandbox").notNull(),
    status: text("status", { enum: MESSAGE_STATUSES }).notNull(),
    templateId: text("template_id").references(() => templates.id, { onDelete: "set null" }),
    batchId: text("batch_id"),
    /** Position in the batch request (0-based): batch pages list in request order. */
    batchIndex: integer("batch_index"),
    workflowRunId: text("workflow_run_id"),
    groupId: text("group_id"),
    variables: jsonb("variables").$type<Record<string, unknown>>().notNull().default({}),
    referenceId: text("reference_id").notNull().default(""),
    to: jsonb("to").$type<string[]>().notNull(),
    /** Lower-cased bare addresses of `to`, for the index-backed `to` filter. */
    toAddresses: text("to_addresses")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    cc: jsonb("cc").$type<string[]>().notNull().default([]),
    bcc: jsonb("bcc").$type<string[]>().notNull().default([]),
    from: text("from").notNull(),
    replyTo: text("reply_to"),
    subject: text("subject").notNull(),
    bodyHtml: text("body_html").notNull(),
    bodyText: text("body_text").notNull(),
    headers: jsonb("headers").$type<Record<string, string>>().notNull().default({}),
    attachments: jsonb("attachments").$type<StoredAttachment[]>().notNull().default([]),
    metaId: text("meta_id"),
    metadata: jsonb("metadata").$type<Record<string, string | number | boolean>>().notNull().default({}),
    /** `name:value` tags (docs/api.md#tags); defaulted, so rows written before tags existed read as none. */
    tags: text("tags")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The locale the template rendered in (docs/templates.md#where-the-locale-comes-from); null: written before locales. */
    locale: text("locale"),
    /** The locale asked for (the send's, else the contact's), canonical; null when none was. */
    requestedLocale: text("requested_locale"),
    processedAt: ts("processed_at"),
    sentAt: ts("sent_at"),
    deliveredAt: ts("delivered_at"),
    firstOpenedAt: ts("first_opened_at"),
    lastOpenedAt: ts("last_opened_at"),
    firstClickedAt: ts("first_clicked_at"),
    lastClickedAt: ts("last_clicked_at"),
    firstComplainedAt: ts("first_complained_at"),
    lastComplainedAt: ts("last_complained_at"),
    firstBouncedAt: ts("first_bounced_at"),
    lastBouncedAt: ts("last_bounced_at"),
    erroredAt: ts("errored_at"),
    lastSuppressedAt: ts("last_suppressed_at"),
    lastUnsubscribedAt: ts("last_unsubscribed_at"),
    /** Set by the periodic check when a sent message never got a delivery confirmation. */
    deliveryUnconfirmedAt: ts("delivery_unconfirmed_at"),
    /** Bodies, variables and stored MIME removed (retention or erase); metadata and events stay. */
    contentPurgedAt: ts("content_purged_at"),
    /** When delivery may start (docs/api.md#decided-scheduled-sends); null: at once. */
    scheduledAt: ts("scheduled_at"),
    /** Set just before a network provider gets the message: from then on it cannot be cancelled or rescheduled. */
    handedOverAt: ts("handed_over_at"),
    /**
     * The connection a message with fallbacks was handed to (its id, or `default`): a retry after a hand-off with no
     * clear answer goes through it again, never another (docs/delivery.md#routing-and-failover). Null otherwise.
     */
    connectionId: text("connection_id"),
    /** The message this one resends. No foreign key: messages are partitioned by day and a day is dropped whole
     * (docs/architecture.md#partitioned-by-day), so a resend may outlive its original, which then reads as gone. */
    resentFromId: text("resent_from_id"),
    /** The conversation (inbound_threads) it belongs to: a reply sent through the reply API, or an original someone
     * answered. No foreign key: a key would make every delete of a thread scan this table. */
    threadId: text("thread_id"),
    /**
     * The W3C traceparent of the request that accepted it, when tracing was on: its delivery and its webhooks join
     * that trace, whichever job or retry runs them (docs/observability.md#one-message-one-trace). Null otherwise.
     */
    traceParent: text("trace_parent"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Keyset pagination (docs/architecture.md#rules-that-carry-weight, rule 7): newest first within a workspace.
    index("email_messages_workspace_created_idx").on(t.workspaceId, t.createdAt, t.id),
    index("email_messages_meta_idx")
      .on(t.workspaceId, t.metaId, t.createdAt)
      .where(sql`${t.metaId} is not null`),
    index("email_messages_batch_idx")
      .on(t.batchId, t.batchIndex)
      .where(sql`${t.batchId} is not null`),
    index("email_messages_workflow_run_idx")
      .on(t.workflowRunId, t.createdAt)
      .where(sql`${t.workflowRunId} is not null`),
    // Provider events name the message by the provider's id.
    index("email_messages_reference_idx")
      .on(t.referenceId)
      .where(sql`${t.referenceId} <> ''`),
    index("email_messages_scheduled_idx")
      .on(t.workspaceId, t.scheduledAt)
      .where(sql`${t.scheduledAt} is not null`),
    index("email_messages_status_idx").on(t.workspaceId, t.status, t.createdAt, t.id),
    index("email_messages_unconfirmed_idx")
      .on(t.sentAt)
      .where(sql`${t.sentAt} is not null and ${t.deliveredAt} is null and ${t.deliveryUnconfirmedAt} is null`),
    // Each workspace's bodies are purged on its own window (docs/retention.md): its unpurged rows, oldest first.
    index("email_messages_retention_idx")
      .on(t.workspaceId, t.createdAt, t.id)
      .where(sql`${t.contentPurgedAt} is null`),
    // Trigrams back ILIKE '%…%' subject search (docs/dashboard/emails.md#searching-by-subject).
    index("email_messages_subject_trgm_idx").using("gin", t.subject.op("gin_trgm_ops")),
    // `tags @> array[…]` (GET /v1/email_messages?tag=): GIN finds every message holding all the asked tags.
    index("email_messages_tags_idx").using("gin", t.tags),
    index("email_messages_thread_idx")
      .on(t.threadId, t.createdAt)
      .where(sql`${t.threadId} is not null`),
    index("email_messages_resent_from_idx")
      .on(t.resentFromId)
      .where(sql`${t.resentFromId} is not null`),
  ],
);

/** Each message's bare `to` addresses, one row each: the `to` filter pages this primary key as a keyset. Partitioned
 * like its messages by the message id (docs/architecture.md#partitioned-by-day). */
export const emailMessageRecipients = pgTable(
  "email_message_recipients",
  {
    // No foreign key: triggers keep the rows with their message; a key would lock the workspace row per message.
    workspaceId: text("workspace_id").notNull(),
    address: text("address").notNull(),
    createdAt: createdAt(),
    emailMessageId: text("email_message_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.address, t.createdAt, t.emailMessageId] })],
);

/**
 * The timeline, partitioned like its messages by the message id (docs/architecture.md#partitioned-by-day). Its keys
 * are each partition's own, made by the partition manager (lib/records/partitions/): a primary key on id, and a
 * foreign key (on delete cascade) to the messages' partition of the same range. The parent can hold neither: a
 * unique key there must contain the message id, and a key between partitioned tables would make every dropped day
 * check the newer ones.
 */
export const emailMessageLogs = pgTable(
  "email_message_logs",
  {
    id: text("id").notNull(),
    // The message's foreign key covers it (docs/benchmarks.md#fewer-foreign-keys-on-the-accept-path).
    workspaceId: text("workspace_id").notNull(),
    emailMessageId: text("email_message_id").notNull(),
    code: text("code").notNull(),
    message: text("message").notNull(),
    /** Provider's own event id: the same provider event twice records one event. */
    providerEventId: text("provider_event_id"),
    /** Opens and clicks from scanners and prefetchers are kept but do not move timestamps. */
    bot: boolean("bot").notNull().default(false),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("email_message_logs_message_idx").on(t.emailMessageId, t.createdAt, t.id),
    uniqueIndex("email_message_logs_provider_event_idx")
      .on(t.emailMessageId, t.providerEventId)
      .where(sql`${t.providerEventId} is not null`),
  ],
);

/** metaId idempotency (docs/api.md#decided-idempotency): two identical concurrent requests create one resource. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    scope: text("scope").notNull(),
    metaId: text("meta_id").notNull(),
    requestHash: text("request_hash").notNull(),
    resourceId: text("resource_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.scope, t.metaId, t.requestHash] })],
);

/** A request to Resend, committed before it is sent and only ever replayed as is: a retry never sends twice. */
export const resendHandoffs = pgTable(
  "resend_handoffs",
  {
    idempotencyKey: text("idempotency_key").primaryKey(),
    messageIds: text("message_ids").array().notNull(),
    /** POST /emails/batch's body; json, not jsonb, so the replay keeps its key order. Null for POST /emails. */
    emails: json("emails").$type<Array<Record<string, unknown>>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index("resend_handoffs_message_ids_idx").using("gin", t.messageIds),
    index("resend_handoffs_created_at_idx").on(t.createdAt),
  ],
);
