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
    const built = dialect.sqlToQuery(
      sql.join(
        Object.values(columns).map((column) => sql.identifier(column.name)),
        sql`, `,
      ),
    );
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
  const decode = rowDecoder(columns);
  return rowsOf(result).map((row) => decode(row, columns)) as T[];
}

/** A raw result's rows: postgres.js answers an array of rows, PGlite an object holding them. */
export function rowsOf(result: unknown): Array<Record<string, unknown>> {
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<Record<string, unknown>>;
}

type RowDecoder = (row: Record<string, unknown>, columns: Columns) => Record<string, unknown>;
const rowDecoders = new WeakMap<Columns, RowDecoder>();

/**
 * One function per columns object, which reads each column by its name and builds the row as one
 * object literal (callers keep their columns objects as constants: a new object is a new function).
 * Why generated: a loop over the columns reads and writes every cell through a
 * computed key, which V8 cannot specialise (one call site for 37 names) and which cost ~10 % of a
 * list page's CPU; named reads and a literal of fixed shape are cheap, and every row shares that shape
 * for the serializer that reads it. The source holds only the schema's own column names and keys,
 * quoted with JSON.stringify; values never enter it. Every column goes through its own public decoder,
 * even one that passes values through: telling those apart meant comparing with Drizzle's prototype,
 * for no measurable gain (docs/architecture.md#dependency-internals).
 */
function rowDecoder(columns: Columns): RowDecoder {
  let decode = rowDecoders.get(columns);
  if (!decode) {
    const fields = Object.entries(columns).map(([key, column]) => {
      const cell = `row[${JSON.stringify(column.name)}]`;
      const value = `${cell} == null ? null : columns[${JSON.stringify(key)}].mapFromDriverValue(${cell})`;
      return `${JSON.stringify(key)}: ${value}`;
    });
    decode = new Function("row", "columns", `return { ${fields.join(", ")} };`) as RowDecoder;
    rowDecoders.set(columns, decode);
  }
  return decode;
}
