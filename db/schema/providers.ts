import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, jsonb, ts, updatedAt } from "./columns";
import { workspaces } from "./workspaces";

/** What a connection sends through (docs/delivery.md#routing-and-failover). */
export const CONNECTION_KINDS = ["local", "smtp", "resend", "ses", "simulator"] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];

/** A connection's settings that are not secret, as the API shows them. */
export interface ConnectionSettings {
  /** smtp: smtp://host:port or smtps://host:port, without credentials. */
  url?: string;
  /** smtp: the user name of AUTH. */
  user?: string;
  /** resend: the API's base URL (default https://api.resend.com). */
  baseUrl?: string;
  /** ses: the region, the configuration set, the endpoint (default AWS's), the SNS topics whose events it takes. */
  region?: string;
  configurationSet?: string;
  endpoint?: string;
  snsTopicArns?: string[];
  /** ses: the access key id (its secret half is in `secrets`). */
  accessKeyId?: string;
}

/** The secret half, sealed with the secret box (`provider-connection` purpose) as one JSON object. */
export interface ConnectionSecrets {
  /** smtp: AUTH's password. */
  password?: string;
  /** resend: the API key. */
  apiKey?: string;
  /** resend: the webhook signing secret (whsec_…) of this connection's events endpoint. */
  webhookSecret?: string;
  /** ses: the secret access key. */
  secretAccessKey?: string;
}

/**
 * A workspace's own way out: a relay, a Resend or SES account. The instance's env is the `default` connection of
 * every workspace and has no row.
 */
export const providerConnections = pgTable(
  "provider_connections",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** What rules name: lower-case letters, digits, `-` and `_`; `default` is the instance's. */
    name: text("name").notNull(),
    kind: text("kind", { enum: CONNECTION_KINDS }).notNull(),
    settings: jsonb("settings").$type<ConnectionSettings>().notNull().default({}),
    /** Sealed ConnectionSecrets; null when the kind needs none. */
    secrets: text("secrets"),
    /** The secrets before the last rotation, still accepted for incoming events until `previousSecretsUntil`. */
    previousSecrets: text("previous_secrets"),
    previousSecretsUntil: ts("previous_secrets_until"),
    /** Messages a second through this connection, across every process; null: no limit. */
    ratePerSecond: integer("rate_per_second"),
    /** Hand-offs in flight at once through this connection, across every process; null: no limit. */
    concurrency: integer("concurrency"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("provider_connections_name_idx").on(t.workspaceId, t.name)],
);

/** The big mailbox families a rule can match by the recipient domain's MX hosts. */
export const MAILBOX_FAMILIES = ["gmail", "microsoft", "yahoo", "apple"] as const;
export type MailboxFamily = (typeof MAILBOX_FAMILIES)[number];

/** What a rule matches; every field given must match (an empty rule matches every message). */
export interface RuleMatch {
  /** Every recipient's domain matches one of these (`*` matches any run of characters: `*.example.com`). */
  recipientDomains?: string[];
  /** Every recipient's domain is served by one of these families (by its MX hosts). */
  mailboxFamilies?: MailboxFamily[];
  senderDomains?: string[];
  /** The message's `stream:` tag; a message without one is in `transactional`. */
  streams?: string[];
  /** Unsubscribe groups (grp_…). */
  groupIds?: string[];
  /** Templates (tpl_…). */
  templateIds?: string[];
}

/** A workspace's routing rule: the first enabled rule that matches a message names its connections, in order. */
export const routingRules = pgTable(
  "routing_rules",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** Rules are tried in ascending position (then creation). */
    position: integer("position").notNull(),
    name: text("name"),
    match: jsonb("match").$type<RuleMatch>().notNull().default({}),
    /** Connection names: the primary first, then the fallbacks in order. */
    connections: text("connections").array().notNull(),
    enabled: boolean("enabled").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("routing_rules_workspace_idx").on(t.workspaceId, t.position, t.createdAt)],
);

export const CIRCUIT_STATES = ["closed", "open", "half_open"] as const;
export type CircuitState = (typeof CIRCUIT_STATES)[number];

/** One circuit breaker per workspace and connection (`default` for the instance's), shared by every process. */
export const providerCircuits = pgTable(
  "provider_circuits",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** The connection's id, or `default`. */
    connection: text("connection").notNull(),
    state: text("state", { enum: CIRCUIT_STATES }).notNull().default("closed"),
    /** Failures in a row since the last success (or since `failingSince`'s window began). */
    failures: integer("failures").notNull().default(0),
    failingSince: ts("failing_since"),
    /** When an open circuit lets one probe through (half-open). */
    retryAt: ts("retry_at"),
    /** The last failure, in people's words. */
    lastError: text("last_error"),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.connection] })],
);

/** A connection's send rate across every process: the messages counted in the current one-second window. */
export const connectionRateWindows = pgTable("connection_rate_windows", {
  /** The connection's id (`pcon_…`). */
  connection: text("connection").primaryKey(),
  windowStart: ts("window_start").notNull(),
  count: integer("count").notNull(),
});

/** Hand-offs in flight through a connection, across every process: a lease per hand-off, expiring if its process dies. */
export const connectionLeases = pgTable(
  "connection_leases",
  {
    connection: text("connection").notNull(),
    lease: text("lease").notNull(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.connection, t.lease] })],
);
