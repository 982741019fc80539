/**
 * A family: tables partitioned by one id range, a partition of each per day, created and dropped together
 * (docs/architecture.md#partitioned-by-day). The root holds the ids; the others hold the root's id (their key) and
 * come after it, so a day's rows of every table go in and out at once and their keys to the root never cross days.
 */
export interface PartitionedTable {
  name: string;
  /** The partition key column (the root's id, or the column holding it). */
  key: string;
  /** What each partition needs beyond its parent's: the keys the parent cannot hold. `leaf` and `rootLeaf` are
   * the names of this table's and the root's partitions of one range. */
  leafKeys(leaf: string, rootLeaf: string): string[];
}

export interface PartitionFamily {
  /** The id prefix of the root's ids (lib/foundation/ids.ts). */
  prefix: string;
  /** The root first: the others' keys point at it. */
  tables: PartitionedTable[];
}

const noKeys = () => [];

/** The leaf's own key to the root's leaf of the same range, deleting with it as the old key did. */
const toMessage = (column: string) => (leaf: string, rootLeaf: string) => [
  `ALTER TABLE "${leaf}" ADD CONSTRAINT "${leaf}_message_fk" FOREIGN KEY ("${column}") REFERENCES "${rootLeaf}"("id") ON DELETE CASCADE`,
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
      leafKeys: (leaf, rootLeaf) => [
        `ALTER TABLE "${leaf}" ADD CONSTRAINT "${leaf}_pkey" PRIMARY KEY ("id")`,
        ...toMessage("email_message_id")(leaf, rootLeaf),
      ],
    },
    { name: "local_inbox", key: "email_message_id", leafKeys: toMessage("email_message_id") },
  ],
};

export const FAMILIES: PartitionFamily[] = [MESSAGE_FAMILY];

export const rootOf = (family: PartitionFamily) => family.tables[0];
export const legacyOf = (table: PartitionedTable) => `${table.name}_legacy`;
export const defaultOf = (table: PartitionedTable) => `${table.name}_default`;
