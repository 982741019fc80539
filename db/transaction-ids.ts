import { sql } from "drizzle-orm";
import type { Db, Executor } from "./client";
import { rowsOf } from "./column-rows";

/**
 * Rows that hold PostgreSQL transaction ids, and the database's own counter.
 *
 * webhook_events.tx_id is written from `pg_current_xact_id()` (an xid8: the 32-bit xid with its epoch
 * above it) and the fan-out's cursor copies it; the event feed and the fan-out read only events of
 * transactions older than every running one (`tx_id < pg_snapshot_xmin(…)`). The counter belongs to
 * the cluster. A backup restored onto a new cluster (or rows loaded into a new database) brings ids
 * that cluster has not reached: every restored event stays unread and new events sort before the
 * fan-out's cursor, so webhooks and the feed stop, silently, until the counter passes them.
 * The cure is to move the counter past them: spend ids when they are few, or move the epoch
 * (`pg_resetwal --epoch`, the server stopped) when they are many. Used by `db restore`
 * (lib/entry/cli/backup.ts), the readiness check and the upgrade test's loader.
 */

/** Every column holding an id from `pg_current_xact_id()`; transaction-ids.test.ts keeps the list whole. */
export const TRANSACTION_ID_COLUMNS = [
  { table: "webhook_events", column: "tx_id" },
  { table: "webhook_dispatch_state", column: "tx_id" },
] as const;

/**
 * Ids spent without asking. Each is a committed top-level transaction of a DO loop (about 0.5 s per
 * 100,000 on PostgreSQL and PGlite alike, no WAL flush), so the limit costs about 5 s and 0.5% of
 * the distance to autovacuum's default anti-wraparound age. A cluster further behind is usually
 * a new one meeting an old one's ids by the million: moving the epoch is immediate and spends nothing.
 */
export const SPEND_LIMIT = 1_000_000;

/** One DO statement spends at most this many, so no single statement runs for long. */
const SPEND_CHUNK = 100_000;

export interface TransactionHorizon {
  /** The highest id the rows hold (0 without any). */
  stored: number;
  /** The id the database's next transaction gets: read from a snapshot, so asking assigns none. */
  next: number;
}

/** How many ids the database must spend before its next transaction is past every stored one. */
export function idsBehind(horizon: TransactionHorizon): number {
  return horizon.stored >= horizon.next ? horizon.stored - horizon.next + 1 : 0;
}

/** The epoch that puts every new id past the stored ones: `(stored >> 32) + 1`. */
export function epochPast(horizon: TransactionHorizon): number {
  return Math.floor(horizon.stored / 2 ** 32) + 1;
}

/** One statement, cheap enough for every readiness probe: a backward scan of (tx_id, seq)'s index and a single row. */
export async function readTransactionHorizon(db: Executor): Promise<TransactionHorizon> {
  const highest = sql.join(
    TRANSACTION_ID_COLUMNS.map(
      ({ table, column }) => sql`(select max(${sql.identifier(column)}) from ${sql.identifier(table)})`,
    ),
    sql`, `,
  );
  const [row] = rowsOf(
    await db.execute(
      sql`select greatest(${highest})::text as stored, pg_snapshot_xmax(pg_current_snapshot())::text as next`,
    ),
  ) as Array<{ stored: string | null; next: string }>;
  return { stored: Number(row.stored ?? 0), next: Number(row.next) };
}

/**
 * Spends `count` transaction ids: each turn of the loop is a transaction of its own that takes an id
 * and commits. Not subtransactions: `pg_current_xact_id()` answers the top-level id inside them,
 * and one only takes an id of its own by writing. Needs a connection outside any transaction block.
 */
export async function spendTransactionIds(db: Db, count: number): Promise<void> {
  for (let left = count; left > 0; left -= SPEND_CHUNK) {
    const turns = Math.min(left, SPEND_CHUNK);
    if (!Number.isSafeInteger(turns)) throw new Error(`not a count of transaction ids: ${count}`);
    await db.execute(
      sql.raw(`do $$ begin for i in 1..${turns} loop perform pg_current_xact_id(); commit; end loop; end $$`),
    );
  }
}

export type PassResult =
  | { outcome: "past"; horizon: TransactionHorizon }
  | { outcome: "advanced"; horizon: TransactionHorizon; spent: number }
  | { outcome: "behind"; horizon: TransactionHorizon; epoch: number };

/** Moves the database's counter past the stored ids when at most `limit` are missing; says what it found and did. */
export async function passStoredTransactionIds(db: Db, limit = SPEND_LIMIT): Promise<PassResult> {
  const horizon = await readTransactionHorizon(db);
  const behind = idsBehind(horizon);
  if (behind === 0) return { outcome: "past", horizon };
  if (behind > limit) return { outcome: "behind", horizon, epoch: epochPast(horizon) };
  await spendTransactionIds(db, behind);
  const after = await readTransactionHorizon(db);
  if (idsBehind(after) > 0) throw new Error(`spent ${behind} transaction ids and the database is still behind`);
  return { outcome: "advanced", horizon, spent: behind };
}

/** The data directory of a PostgreSQL server, when the connecting role may read it (superuser or pg_read_all_settings). */
export async function dataDirectory(db: Executor): Promise<string | undefined> {
  try {
    const [row] = rowsOf(await db.execute(sql`select current_setting('data_directory') as value`));
    return String(row.value);
  } catch {
    return undefined;
  }
}

/** What is wrong and the remedy, with its numbers: for the CLI and the readiness check alike. */
export function describeBehind(horizon: TransactionHorizon, directory = "<its data directory>"): string {
  const epoch = epochPast(horizon);
  return (
    `the rows hold transaction ids up to ${horizon.stored} and this database's next is ${horizon.next} ` +
    `(${idsBehind(horizon)} behind, as after a restore onto a new PostgreSQL cluster), so webhooks and the event ` +
    `feed wait until it passes them. Stop the PostgreSQL server cleanly, run as its owner ` +
    `\`pg_resetwal --epoch=${epoch} -D ${directory}\`, then start it ` +
    `again (docs/backups.md#restoring-onto-a-new-server)`
  );
}
