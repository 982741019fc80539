import { env } from "@/lib/foundation/env";

/**
 * A family: tables partitioned by one range of time-ordered ids, a partition of each per day, created and dropped
 * together (docs/architecture.md#partitioned-by-day). The root holds the ids; the others hold the root's id, or ids
 * of their own made at the root row's time, and come after it: a day's rows of every table go in and out at once, and
 * their keys to one another never cross days.
 */
export interface PartitionedTable {
  name: string;
  /** The partition key column (the root's id, or the column holding it). */
  key: string;
  /** The id prefix of the key's values (lib/foundation/ids.ts) when it is not the family's. */
  keyPrefix?: string;
  /** What each partition needs beyond its parent's: the keys the parent cannot hold. `leaf` is this table's partition;
   * `leafOf` names another table's partition of the same range. */
  leafKeys(leaf: string, leafOf: (table: string) => string): string[];
}

export interface PartitionFamily {
  /** The id prefix of the root's ids (lib/foundation/ids.ts). */
  prefix: string;
  /** The root first: the others' keys point at it. */
  tables: PartitionedTable[];
  /** How many days a day is kept once it ended, given the longest metadata window of any workspace: past it, every
   * row in it is past its window (docs/retention.md#what-is-purged-when). */
  keepDays(longestMetadataWindow: number): number;
  /** A SQL condition over a day's partitions (named by `leafOf`): true while a row in it still waits for work, so the
   * day stays past every window. One probe of an index, never a scan. */
  waiting(leafOf: (table: string) => string): string;
  /** For a family whose rows hold bodies the retention purges: a SQL condition over a day's partitions, true while a
   * row in it still holds its body. Once false, the day is compacted (compact-purged-days.ts). One index probe. */
  bodiesLeft?(leafOf: (table: string) => string): string;
}

/**
 * Releases what a day's rows keep outside the database (inbound attachments' bytes), before the day is detached: given
 * by the caller of the manager (lib/entry/worker/maintenance.ts), since the storage is a higher floor's.
 */
export type ReleaseOutside = (family: PartitionFamily, leafOf: (table: string) => string) => Promise<void>;

const noKeys = () => [];

/** The leaf's own key to another table's leaf of the same range, deleting with it as the old key did. */
const keyTo = (table: string, column: string) => (leaf: string, leafOf: (table: string) => string) => [
  `ALTER TABLE "${leaf}" ADD CONSTRAINT "${leaf}_${column}_fk" FOREIGN KEY ("${column}") REFERENCES "${leafOf(table)}"("id") ON DELETE CASCADE`,
];

/** Messages, their recipients, their timelines and their local inbox copies: migration 0022. */
export const MESSAGE_FAMILY: PartitionFamily = {
  prefix: "em_",
  tables: [
    { name: "email_messages", key: "id", leafKeys: noKeys },
    { name: "email_message_recipients", key: "email_message_id", leafKeys: noKeys },
    {
      name: "email_message_logs",
      key: "email_message_id",
      leafKeys: (leaf, leafOf) => [
        `ALTER TABLE "${leaf}" ADD CONSTRAINT "${leaf}_pkey" PRIMARY KEY ("id")`,
        ...keyTo("email_messages", "email_message_id")(leaf, leafOf),
      ],
    },
    { name: "local_inbox", key: "email_message_id", leafKeys: keyTo("email_messages", "email_message_id") },
  ],
  keepDays: (longestMetadataWindow) => longestMetadataWindow,
  // Scheduled, retrying, or held while its workspace is paused: the metadata purge keeps it too.
  waiting: (leafOf) =>
    `exists (select 1 from workspaces w where exists (select 1 from "${leafOf("email_messages")}" m
      where m.workspace_id = w.id and m.status in ('PENDING', 'PAUSED')))`,
  // email_messages_retention_idx holds exactly these rows.
  bodiesLeft: (leafOf) => `exists (select 1 from "${leafOf("email_messages")}" m where m.content_purged_at is null)`,
};

/**
 * Webhook events, their deliveries and the deliveries' attempts: migration 0027. A delivery's id is made at its
 * event's time (lib/flows/webhooks/fan-out.ts), so it lies in its event's day, and so do its attempts, keyed by it.
 */
export const WEBHOOK_FAMILY: PartitionFamily = {
  prefix: "evt_",
  tables: [
    { name: "webhook_events", key: "id", leafKeys: noKeys },
    { name: "webhook_deliveries", key: "id", keyPrefix: "whdl_", leafKeys: noKeys },
    {
      name: "webhook_attempts",
      key: "delivery_id",
      keyPrefix: "whdl_",
      leafKeys: (leaf, leafOf) => [
        `ALTER TABLE "${leaf}" ADD CONSTRAINT "${leaf}_pkey" PRIMARY KEY ("id")`,
        ...keyTo("webhook_deliveries", "delivery_id")(leaf, leafOf),
      ],
    },
  ],
  // Each workspace's webhook rows go at the shorter of its metadata window and the webhook log's.
  keepDays: (longestMetadataWindow) => Math.min(longestMetadataWindow, env().WEBHOOK_LOG_RETENTION_DAYS),
  // A delivery not settled yet (webhook_deliveries_due_idx): the batch purge keeps it and its event too.
  waiting: (leafOf) =>
    `exists (select 1 from "${leafOf("webhook_deliveries")}" d where d.status in ('pending', 'sending'))`,
};

/** The API request log (every authenticated /v1 request with its bodies): migration 0028, kept ACTIVITY_RETENTION_DAYS. */
export const ACTIVITY_FAMILY: PartitionFamily = {
  prefix: "act_",
  tables: [{ name: "activity_logs", key: "id", leafKeys: noKeys }],
  keepDays: () => env().ACTIVITY_RETENTION_DAYS,
  waiting: () => "false",
};

/**
 * Inbound mail and its raw bytes: migration 0029, dropped past the longest metadata window as the batch purge deletes
 * it. Its dedupe keys live in inbound_dedupe_keys (unique across days), purged with the workspace's metadata; its
 * attachments' bytes are in the attachment storage, released before a day goes (`ReleaseOutside`).
 */
export const INBOUND_FAMILY: PartitionFamily = {
  prefix: "inm_",
  tables: [
    { name: "inbound_messages", key: "id", leafKeys: noKeys },
    {
      name: "inbound_message_raw",
      key: "inbound_message_id",
      leafKeys: keyTo("inbound_messages", "inbound_message_id"),
    },
  ],
  keepDays: (longestMetadataWindow) => longestMetadataWindow,
  waiting: () => "false",
  // inbound_messages_retention_idx holds exactly these rows.
  bodiesLeft: (leafOf) => `exists (select 1 from "${leafOf("inbound_messages")}" m where m.content_purged_at is null)`,
};

export const FAMILIES: PartitionFamily[] = [MESSAGE_FAMILY, WEBHOOK_FAMILY, ACTIVITY_FAMILY, INBOUND_FAMILY];

export const rootOf = (family: PartitionFamily) => family.tables[0];
export const prefixOf = (family: PartitionFamily, table: PartitionedTable) => table.keyPrefix ?? family.prefix;
export const legacyOf = (table: PartitionedTable | string) =>
  `${typeof table === "string" ? table : table.name}_legacy`;
export const defaultOf = (table: PartitionedTable | string) =>
  `${typeof table === "string" ? table : table.name}_default`;
