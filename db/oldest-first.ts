import "server-only";
import { and, asc, eq, gt, or, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "@/db/client";

export interface OldestFirstWalk {
  db: Executor;
  table: PgTable;
  createdAt: PgColumn;
  id: PgColumn;
  /** Which rows are due (past a cutoff, not yet handled): each chunk is read again with it. */
  where: SQL;
  chunk: number;
}

/**
 * Retention's walk: the due rows oldest first on (created_at, id), `chunk` ids at a time, each handed to `handle`
 * (one short transaction per chunk, so a large backlog never holds a long one). Returns what `handle` counted.
 */
export async function walkOldestFirst(
  walk: OldestFirstWalk,
  handle: (ids: string[]) => Promise<number>,
): Promise<number> {
  const { db, table, createdAt, id } = walk;
  let after: { createdAt: Date; id: string } | null = null;
  let total = 0;
  for (;;) {
    const past = after
      ? or(gt(createdAt, after.createdAt), and(eq(createdAt, after.createdAt), gt(id, after.id)))
      : undefined;
    const rows = (await db
      .select({ id, createdAt })
      .from(table)
      .where(and(walk.where, past))
      .orderBy(asc(createdAt), asc(id))
      .limit(walk.chunk)) as Array<{ id: string; createdAt: Date }>;
    if (rows.length === 0) break;
    total += await handle(rows.map((row) => row.id));
    after = rows[rows.length - 1];
    if (rows.length < walk.chunk) break;
  }
  return total;
}
