import "server-only";
import { sql } from "drizzle-orm";
import type { Db, Executor, Tx } from "@/db/client";
import type { PartitionFamily } from "./family";

/**
 * How long a partition change waits for a table lock before giving up until the next run. Attach, detach and drop
 * take brief locks on a parent; a change queued behind a long query would hold up every insert queued behind it,
 * so it stops waiting instead (docs/architecture.md#partitioned-by-day): sending waits at most this long.
 */
export const LOCK_TIMEOUT = "1s";

/** Statements made from constant names and id bounds of our own (no user input): run as written. */
export async function runDdl(db: Executor, statements: string[]): Promise<void> {
  for (const statement of statements) await db.execute(sql.raw(statement));
}

/**
 * One short transaction that gives up rather than queue for a lock, and first locks the family's parents in the order
 * a send takes them (the root, then the tables its rows lead to). Creating, attaching, detaching or dropping a
 * partition locks its parent; taken table by table as the statements come (a timeline's partition before its
 * message's), those locks met a send holding the messages and waiting for the timeline: a deadlock, and a 500 for the
 * send (bench:purge found it). Parents only (`ONLY`): not every partition's lock.
 */
export async function inLockBoundTransaction(
  db: Db,
  family: PartitionFamily,
  work: (tx: Tx) => Promise<void>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local lock_timeout = '${LOCK_TIMEOUT}'`));
    const parents = family.tables.map((table) => `ONLY "${table.name}"`).join(", ");
    await tx.execute(sql.raw(`LOCK TABLE ${parents} IN ACCESS EXCLUSIVE MODE`));
    await work(tx);
  });
}

/** Statements in one transaction that gives up on a lock after `LOCK_TIMEOUT`, locking no parent of its own accord. */
export async function runDdlBounded(db: Db, statements: string[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local lock_timeout = '${LOCK_TIMEOUT}'`));
    await runDdl(tx, statements);
  });
}

/** 55P03: lock_not_available, what lock_timeout raises. */
export function isLockTimeout(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } })?.code ??
    (error as { cause?: { code?: string } })?.cause?.code;
  return code === "55P03";
}
