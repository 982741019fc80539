import "server-only";
import { and, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "@/db/client";
import { columnList, decodeRows, rowsOf, type Columns } from "@/db/column-rows";
import { executePrepared } from "@/db/execute-prepared";
import { invalidParameter } from "@/lib/foundation/errors";
import type { KeysetPageQuery } from "@/lib/foundation/pagination";

interface Keyed {
  createdAt: Date;
  id: string;
}

export interface KeysetQuery {
  db: Executor;
  table: PgTable;
  createdAt: PgColumn;
  id: PgColumn;
  /** Tenant scope and filters; the cursor object must also satisfy the tenant scope. */
  scope: SQL;
  filters: SQL[];
  /** The columns a page reads (what its caller returns), keyed as its rows are; every column when absent. */
  columns?: Columns;
  /**
   * For a table partitioned by its time-ordered id: id bounds from a time (lib/records/partitions/prune.ts), so a
   * page from a cursor, and the look past a page's ends, leave out the partitions on the cursor's other side.
   */
  keyBounds?: { before(at: Date): SQL; from(at: Date): SQL };
}

// Unfiltered pages run prepared (db/execute-prepared.ts: one round trip, not two). Filtered ones run unnamed, planned
// for their values: a generic plan would ignore how rare a value is, and every filter combination would stay prepared.
const preparedWhen = (filters: SQL[]) => filters.length === 0;

/**
 * Newest-first keyset pages on (created_at, id), an index range scan at any depth (docs/api.md#decided-listing-messages).
 * `cursor.after` pages towards older rows, `cursor.before` towards newer; an unknown or foreign cursor id is a 400.
 */
export async function keysetPage<T extends Keyed>(query: KeysetQuery, page: KeysetPageQuery) {
  const { db, table, createdAt, id, scope } = query;
  const columns = query.columns ?? (getTableColumns(table) as Columns);
  const where = [scope, ...query.filters];
  const run = (statement: SQL) =>
    preparedWhen(query.filters) ? executePrepared(db, statement) : db.execute(statement);
  let anchor: Keyed | undefined;
  if (page.cursor) {
    const keyColumns = keyColumnsOf(createdAt, id);
    const found = await run(
      sql`select ${columnList(keyColumns)} from ${table} where ${scope} and ${id} = ${page.cursor.id}`,
    );
    [anchor] = decodeRows<Keyed>(found, keyColumns);
    if (!anchor) throw invalidParameter(`cursor.${page.cursor.direction}`, `No object ${page.cursor.id} to page from.`);
  }
  const { keyBounds } = query;
  const older = (row: Keyed) =>
    and(
      sql`(${createdAt}, ${id}) < (${row.createdAt.toISOString()}::timestamptz, ${row.id})`,
      keyBounds?.before(row.createdAt),
    )!;
  const newer = (row: Keyed) =>
    and(
      sql`(${createdAt}, ${id}) > (${row.createdAt.toISOString()}::timestamptz, ${row.id})`,
      keyBounds?.from(row.createdAt),
    )!;
  const backwards = page.cursor?.direction === "before";
  const condition = and(...where, anchor ? (backwards ? newer(anchor) : older(anchor)) : undefined);
  const order = backwards ? sql`${createdAt} asc, ${id} asc` : sql`${createdAt} desc, ${id} desc`;
  const rows = decodeRows<T>(
    await run(
      sql`select ${columnList(columns)} from ${table} where ${condition} order by ${order} limit ${page.limit + 1}`,
    ),
    columns,
  );
  const exists = async (condition: SQL) =>
    rowsOf(await run(sql`select ${id} from ${table} where ${and(...where, condition)} limit 1`)).length > 0;
  return closePage(rows, page, { backwards, anchor, exists, older, newer });
}

/**
 * A fetched page (`limit + 1` rows, in the fetch's order) as the API answers it: newest first, and a cursor
 * on each side only when rows lie beyond it (`exists` asks, for the side the fetch did not look past).
 */
export async function closePage<T extends Keyed>(
  rows: T[],
  page: KeysetPageQuery,
  side: {
    backwards: boolean;
    anchor: Keyed | undefined;
    exists: (condition: SQL) => Promise<boolean>;
    older: (row: Keyed) => SQL;
    newer: (row: Keyed) => SQL;
  },
) {
  const { backwards, anchor, exists, older, newer } = side;
  const more = rows.length > page.limit;
  const items = rows.slice(0, page.limit);
  if (backwards) items.reverse();
  const first = items[0];
  const last = items[items.length - 1];
  const hasOlder = backwards ? !!last && (await exists(older(last))) : more;
  const hasNewer = backwards ? more : !!first && !!anchor && (await exists(newer(first)));
  return {
    items,
    meta: {
      limit: page.limit,
      count: items.length,
      "cursor.after": hasOlder ? last.id : null,
      "cursor.before": hasNewer ? first.id : null,
    },
  };
}

/** One columns object per table's key columns: decodeRows and columnList build theirs once per object. */
const keyColumnSets = new WeakMap<PgColumn, { createdAt: PgColumn; id: PgColumn }>();
function keyColumnsOf(createdAt: PgColumn, id: PgColumn) {
  let columns = keyColumnSets.get(createdAt);
  if (!columns) keyColumnSets.set(createdAt, (columns = { createdAt, id }));
  return columns;
}
