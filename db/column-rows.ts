import { sql, type SQL } from "drizzle-orm";
import { PgDialect, type PgColumn } from "drizzle-orm/pg-core";

/** The columns a hot read selects, keyed by the names its rows should carry (Drizzle's `select({...})` form). */
export type Columns = Record<string, PgColumn>;

const dialect = new PgDialect();
const columnLists = new WeakMap<Columns, SQL>();

/** A select list as one raw chunk, built once per columns object rather than by Drizzle's builder per request. */
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

// Rows keyed by column name (one table per read), without Drizzle's row mapper (docs/benchmarks.md#lists-at-scale).
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

// Generated per (constant) columns object: a fixed-shape literal is cheap, a computed-key loop is not.
// Only schema names, quoted by JSON.stringify, enter the source; values never do.
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
