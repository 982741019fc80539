import { sql, type SQL } from "drizzle-orm";
import { PgDialect, type PgColumn } from "drizzle-orm/pg-core";

/** The columns a hot read selects, keyed by the names its rows should carry (Drizzle's `select({...})` form). */
export type Columns = Record<string, PgColumn>;

const dialect = new PgDialect();
const columnLists = new WeakMap<Columns, SQL>();

/**
 * A select list as one raw chunk, built once per columns object: Drizzle's builder tests each of a
 * message's ~37 columns against every entity class on every request (~4 % of a list request's CPU).
 */
export function columnList(columns: Columns): SQL {
  let list = columnLists.get(columns);
  if (!list) {
    const built = dialect.sqlToQuery(sql.join(Object.values(columns).map((column) => sql.identifier(column.name)), sql`, `));
    list = sql.raw(built.sql);
    columnLists.set(columns, list);
  }
  return list;
}

/**
 * The rows of a raw select of one table's columns (`db.execute` or db/execute-prepared.ts, either
 * driver), each decoded with its columns' own decoders (the timestamp's text → Date, jsonb's text →
 * value) as Drizzle does, without Drizzle's row mapper: that one checks every cell's field with
 * `is(field, Column)`, a prototype walk, and iterates its path; on a page of 50 messages × 37 columns
 * it was about a third of the app's CPU for the request (docs/benchmarks.md#lists-at-scale). Rows are
 * keyed by column name, so two tables' columns of the same name would collide: one table per read.
 */
export function decodeRows<T>(result: unknown, columns: Columns): T[] {
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
