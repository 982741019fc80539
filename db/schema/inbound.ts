import { sql } from "drizzle-orm";
import { boolean, customType, index, integer, pgTable, primaryKey, real, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, jsonb, ts, updatedAt } from "./columns";
import { workspaces } from "./workspaces";

/** The original RFC 5322 bytes (`/raw`), kept apart from the parsed row so lists never read them. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const INBOUND_DOMAIN_STATUSES = ["PENDING", "VERIFIED", "FAILED"] as const;

/** A domain (or subdomain) whose MX points at our inbound listener; one workspace per domain, the MX routes to one. */
export const inboundDomains = pgTable(
  "inbound_domains",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** Lower-cased, no trailing dot. */
    name: text("name").notNull(),
    status: text("status", { enum: INBOUND_DOMAIN_STATUSES }).notNull().default("PENDING"),
    verifiedAt: ts("verified_at"),
    lastCheckedAt: ts("last_checked_at"),
    lastCheckError: text("last_check_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("inbound_domains_name_idx").on(t.name),
    index("inbound_domains_workspace_idx").on(t.workspaceId, t.createdAt, t.id),
  ],
);

export const INBOUND_ROUTE_KINDS = ["exact", "plus", "catch_all"] as const;
export type InboundRouteKind = (typeof INBOUND_ROUTE_KINDS)[number];

/** What a route does with a mail, in order (storing always comes first and is not listed). */
export type InboundAction =
  | { type: "webhook" }
  | { type: "forward"; to: string; from?: string }
  | { type: "workflow"; workflowId: string }
  // DMARC aggregate reports in the mail's attachments, stored for the workspace's domains (docs/deliverability.md).
  | { type: "dmarc" }
  | { type: "reject"; code: number; message: string };

/**
 * A recipient pattern → actions. `exact` (support@d), `plus` (support+{hash}@d: the part after `+` is the
 * mailbox hash), `catch_all` (*@d); matched most specific first (docs/inbound.md#routes).
 */
export const inboundRoutes = pgTable(
  "inbound_routes",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    inboundDomainId: text("inbound_domain_id")
      .notNull()
      .references(() => inboundDomains.id, { onDelete: "cascade" }),
    name: text("name"),
    /** As shown: `support@d`, `support+{hash}@d`, `*@d` (lower-cased). */
    pattern: text("pattern").notNull(),
    kind: text("kind", { enum: INBOUND_ROUTE_KINDS }).notNull(),
    /** The local part (`support`); null for catch_all. */
    localPart: text("local_part"),
    actions: jsonb("actions").$type<InboundAction[]>().notNull().default([]),
    /** What to do with mail failing DMARC: accept it, store it quarantined (no actions run), or refuse it at DATA. */
    dmarcFailAction: text("dmarc_fail_action", { enum: ["accept", "quarantine", "reject"] })
      .notNull()
      .default("accept"),
    /** Above this spamd score (when SPAMD_URL is set) the mail is quarantined or refused. */
    spamThreshold: real("spam_threshold"),
    spamAction: text("spam_action", { enum: ["quarantine", "reject"] })
      .notNull()
      .default("quarantine"),
    enabled: boolean("enabled").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("inbound_routes_pattern_idx").on(t.inboundDomainId, t.pattern),
    index("inbound_routes_workspace_idx").on(t.workspaceId, t.createdAt, t.id),
  ],
);

/** A conversation: inbound mails and the messages we sent in it (email_messages.thread_id). */
export const inboundThreads = pgTable(
  "inbound_threads",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** The subject without Re:/Fwd:/AW:… prefixes, lower-cased: the fallback match within a window. */
    subjectKey: text("subject_key").notNull(),
    /** Sorted, lower-cased addresses of everyone in it. */
    participants: text("participants")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    lastMessageAt: ts("last_message_at").notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("inbound_threads_workspace_idx").on(t.workspaceId, t.createdAt, t.id),
    index("inbound_threads_subject_idx").on(t.workspaceId, t.subjectKey, t.lastMessageAt),
    // GET /v1/threads: newest activity first, keyset pages on (last_message_at, id).
    index("inbound_threads_activity_idx").on(t.workspaceId, t.lastMessageAt, t.id),
  ],
);

export const INBOUND_MESSAGE_STATUSES = ["RECEIVED", "QUARANTINED"] as const;

export interface InboundAddressJson {
  address: string;
  name: string | null;
}

export interface InboundAttachmentJson {
  id: string;
  filename: string;
  contentType: string;
  size: number;
  contentId: string | null;
  inline: boolean;
  storageKey: string;
}

/** One accepted inbound mail, parsed. Committed before the 250 (docs/inbound.md#safety-and-limits). */
export const inboundMessages = pgTable(
  "inbound_messages",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    inboundDomainId: text("inbound_domain_id").references(() => inboundDomains.id, { onDelete: "set null" }),
    routeId: text("route_id").references(() => inboundRoutes.id, { onDelete: "set null" }),
    threadId: text("thread_id").references(() => inboundThreads.id, { onDelete: "set null" }),
    /** The email_messages row this answers (by In-Reply-To, References or a reply token); no key: purges stay free. */
    originalMessageId: text("original_message_id"),
    status: text("status", { enum: INBOUND_MESSAGE_STATUSES }).notNull().default("RECEIVED"),
    quarantineReason: text("quarantine_reason"),
    /** The recipient the route matched, and the part after `+` for plus routes. */
    recipient: text("recipient").notNull(),
    mailboxHash: text("mailbox_hash"),
    envelopeFrom: text("envelope_from").notNull().default(""),
    envelopeTo: text("envelope_to")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    remoteIp: text("remote_ip"),
    helo: text("helo"),
    fromAddress: text("from_address"),
    fromName: text("from_name"),
    to: jsonb("to").$type<InboundAddressJson[]>().notNull().default([]),
    cc: jsonb("cc").$type<InboundAddressJson[]>().notNull().default([]),
    replyTo: jsonb("reply_to").$type<InboundAddressJson[]>().notNull().default([]),
    subject: text("subject").notNull().default(""),
    sentAt: ts("sent_at"),
    messageIdHeader: text("message_id_header"),
    inReplyTo: text("in_reply_to"),
    references: text("references")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    textBody: text("text_body"),
    htmlBody: text("html_body"),
    strippedText: text("stripped_text"),
    strippedSignature: text("stripped_signature"),
    headers: jsonb("headers").$type<Array<[string, string]>>().notNull().default([]),
    attachments: jsonb("attachments").$type<InboundAttachmentJson[]>().notNull().default([]),
    sizeBytes: integer("size_bytes").notNull().default(0),
    spf: text("spf").notNull().default("none"),
    dkim: text("dkim").notNull().default("none"),
    dmarc: text("dmarc").notNull().default("none"),
    arc: text("arc").notNull().default("none"),
    authDetails: jsonb("auth_details").$type<Record<string, unknown>>().notNull().default({}),
    spamStatus: text("spam_status").notNull().default("not_checked"),
    spamScore: real("spam_score"),
    /** What each of the route's actions did (webhook queued, forwarded as em_…, workflow run wfr_…). */
    actionResults: jsonb("action_results").$type<Array<Record<string, unknown>>>().notNull().default([]),
    /** The same Message-ID from the same sender twice is stored once (sha256 of the raw bytes when it has none): unique
     * in inbound_dedupe_keys, since a partitioned table's unique key would have to hold the id. */
    dedupeKey: text("dedupe_key").notNull(),
    /** Bodies, headers, attachments and the raw bytes removed (retention or erase); the envelope stays. */
    contentPurgedAt: ts("content_purged_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("inbound_messages_workspace_created_idx").on(t.workspaceId, t.createdAt, t.id),
    index("inbound_messages_thread_idx")
      .on(t.threadId, t.createdAt)
      .where(sql`${t.threadId} is not null`),
    index("inbound_messages_original_idx")
      .on(t.originalMessageId)
      .where(sql`${t.originalMessageId} is not null`),
    index("inbound_messages_message_id_idx")
      .on(t.workspaceId, t.messageIdHeader)
      .where(sql`${t.messageIdHeader} is not null`),
    index("inbound_messages_retention_idx")
      .on(t.workspaceId, t.createdAt, t.id)
      .where(sql`${t.contentPurgedAt} is null`),
  ],
);

/** Partitioned with its mail (migration 0029): each day's partition has its own key to that day's mails. */
export const inboundMessageRaw = pgTable("inbound_message_raw", {
  inboundMessageId: text("inbound_message_id").primaryKey(),
  workspaceId: text("workspace_id").notNull(),
  raw: bytea("raw").notNull(),
});

/**
 * Each stored mail's (workspace, dedupe key), unique across every day: the inbound mails are partitioned by day
 * (migration 0029), and a partitioned table cannot hold a unique key without its partition key. Written in the
 * mail's own statement (the conflict is the duplicate check); deleted with the workspace's metadata window.
 */
export const inboundDedupeKeys = pgTable(
  "inbound_dedupe_keys",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    dedupeKey: text("dedupe_key").notNull(),
    inboundMessageId: text("inbound_message_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.dedupeKey] }),
    index("inbound_dedupe_keys_created_idx").on(t.workspaceId, t.createdAt),
  ],
);
