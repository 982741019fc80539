import "server-only";
import { and, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { PgDialect, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "@/db/client";
import { invalidParameter } from "@/lib/errors";
import type { KeysetPageQuery } from "@/lib/pagination";

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
  /** The columns a page reads (what its caller returns); every column when absent. */
  columns?: Record<string, PgColumn>;
}

/**
 * Newest-first keyset pages on (created_at, id), both directions (docs/api.md#decided-listing-messages): the page
 * is an index range scan whatever its depth. `cursor.after` pages towards older rows, `cursor.before`
 * towards newer ones, still newest first. An unknown (or another tenant's) cursor id is a 400.
 */
export async function keysetPage<T extends Keyed>(query: KeysetQuery, page: KeysetPageQuery) {
  const { db, table, createdAt, id, scope } = query;
  const where = [scope, ...query.filters];
  let anchor: Keyed | undefined;
  if (page.cursor) {
    [anchor] = (await db.select({ createdAt, id }).from(table).where(and(scope, sql`${id} = ${page.cursor.id}`))) as Keyed[];
    if (!anchor) throw invalidParameter(`cursor.${page.cursor.direction}`, `No object ${page.cursor.id} to page from.`);
  }
  const older = (row: Keyed) => sql`(${createdAt}, ${id}) < (${row.createdAt.toISOString()}::timestamptz, ${row.id})`;
  const newer = (row: Keyed) => sql`(${createdAt}, ${id}) > (${row.createdAt.toISOString()}::timestamptz, ${row.id})`;
  const backwards = page.cursor?.direction === "before";
  const condition = and(...where, anchor ? (backwards ? newer(anchor) : older(anchor)) : undefined);
  const order = backwards ? sql`${createdAt} asc, ${id} asc` : sql`${createdAt} desc, ${id} desc`;
  // A page is the hot read: its select list is built once (columnList) and its rows skip Drizzle's
  // per-cell mapper (selectColumns below).
  const rows = (
    query.columns
      ? await selectColumns<T>(db, sql`select ${columnList(query.columns)} from ${table} where ${condition} order by ${order} limit ${page.limit + 1}`, query.columns)
      : await db.select().from(table).where(condition).orderBy(order).limit(page.limit + 1)
  ) as T[];
  const more = rows.length > page.limit;
  const items = rows.slice(0, page.limit);
  if (backwards) items.reverse();
  const exists = async (condition: SQL) => (await db.select({ id }).from(table).where(and(...where, condition)).limit(1)).length > 0;
  const first = items[0];
  const last = items[items.length - 1];
  const hasOlder = backwards ? !!last && (await exists(older(last))) : more;
  const hasNewer = backwards ? more : !!first && !!anchor && (await exists(newer(first)));
  return {
    items,
    meta: { limit: page.limit, count: items.length, "cursor.after": hasOlder ? last.id : null, "cursor.before": hasNewer ? first.id : null },
  };
}

const dialect = new PgDialect();
const columnLists = new WeakMap<Record<string, PgColumn>, SQL>();

/**
 * A page's select list as one raw chunk, built once per columns object: Drizzle's builder tests each
 * of ~37 columns against every entity class on every request (~4 % of a list request's CPU).
 */
function columnList(columns: Record<string, PgColumn>): SQL {
  let list = columnLists.get(columns);
  if (!list) {
    const built = dialect.sqlToQuery(sql.join(Object.values(columns).map((column) => sql.identifier(column.name)), sql`, `));
    list = sql.raw(built.sql);
    columnLists.set(columns, list);
  }
  return list;
}

/**
 * Runs a select of one table's columns and decodes each row with the columns' own decoders (the
 * timestamp's string → Date, jsonb's text → value), as Drizzle does, without Drizzle's row mapper:
 * that one checks every cell's field with `is(field, Column)`, a prototype walk, and iterates its
 * path. On a page of 50 messages × 37 columns it was about a third of the app's CPU for the request
 * (docs/benchmarks.md#lists-at-scale). For hot read paths of a single table only: rows are keyed by
 * column name, so two tables' columns of the same name would collide.
 */
async function selectColumns<T>(db: Executor, query: SQLWrapper, columns: Record<string, PgColumn>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<Record<string, unknown>>;
  const decoders = Object.entries(columns).map(([key, column]) => ({ key, name: column.name, column }));
  return rows.map((row) => {
    const decoded: Record<string, unknown> = {};
    for (const { key, name, column } of decoders) {
      const raw = row[name];
      decoded[key] = raw === null || raw === undefined ? null : column.mapFromDriverValue(raw);
    }
    return decoded as T;
  });
}
