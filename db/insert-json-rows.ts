import "server-only";
import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "@/db/client";
import { wellFormedJson } from "@/db/well-formed-json";
import { executePrepared } from "./execute-prepared";

/**
 * A multi-row INSERT with the rows as ONE JSON parameter (json_populate_recordset), for the set-based
 * writes of a 1,000-message batch: Drizzle's `.values(rows)` builds one parameter per cell (45,000 for
 * a batch of messages), and building that statement cost more CPU than everything else of acceptance.
 * The columns are those of the first row (every row has the same keys); omitted columns take their
 * defaults. Values are what Drizzle would send: Dates as ISO strings, jsonb values as JSON, text[]
 * as JSON arrays (PostgreSQL converts a JSON array to the array type of the column).
 * `onConflict` is appended as it is (`on conflict (…) do update set …`). The text depends only on the
 * table, the columns and `onConflict`, so it runs as a prepared statement (execute-prepared.ts).
 */
export async function insertJsonRows<T extends PgTable>(
  db: Executor,
  table: T,
  rows: Array<T["$inferInsert"]>,
  options: { onConflict?: SQL } = {},
): Promise<void> {
  if (rows.length === 0) return;
  const keys = Object.keys(rows[0] as Record<string, unknown>) as Array<keyof T["$inferInsert"] & string>;
  await executePrepared(db, jsonRowsInsert(table, keys, sql`${jsonRecords(table, keys, rows)}`, options));
}

/** The rows as jsonRowsInsert's parameter: one JSON array of records keyed by SQL column name. */
export function jsonRecords<T extends PgTable>(
  table: T,
  keys: Array<keyof T["$inferInsert"] & string>,
  rows: Array<T["$inferInsert"]>,
): string {
  const columns = columnsOf(table, keys);
  const records = rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (const [key, name] of columns) record[name] = (row as Record<string, unknown>)[key] ?? null;
    return record;
  });
  return wellFormedJson(records);
}

/**
 * insertJsonRows' statement, for a caller that runs it as one part of a larger statement (a CTE of
 * lib/sending/accept-statement.ts). `rowsJson` is the parameter: jsonRecords' text, or a placeholder
 * for a statement compiled once. The columns are named, not read off the rows, so the text stays the
 * same for an empty list. `computed` replaces a column's value by an expression over the row's
 * columns (by their SQL names), e.g. a status that depends on another CTE; `where` keeps only some rows.
 */
export function jsonRowsInsert<T extends PgTable>(
  table: T,
  keys: Array<keyof T["$inferInsert"] & string>,
  rowsJson: SQL,
  options: { onConflict?: SQL; computed?: Record<string, SQL>; where?: SQL } = {},
): SQL {
  const columns = columnsOf(table, keys);
  const names = sql.join(
    columns.map(([, name]) => sql.identifier(name)),
    sql`, `,
  );
  const values = sql.join(
    columns.map(([, name]) => options.computed?.[name] ?? sql.identifier(name)),
    sql`, `,
  );
  const where = options.where ? sql` where ${options.where}` : sql``;
  const conflict = options.onConflict ? sql` ${options.onConflict}` : sql``;
  return sql`insert into ${table} (${names}) select ${values} from json_populate_recordset(null::${table}, ${rowsJson}::json)${where}${conflict}`;
}

function columnsOf<T extends PgTable>(table: T, keys: Array<keyof T["$inferInsert"] & string>) {
  const all = getTableColumns(table) as Record<string, { name: string }>;
  return keys.filter((key) => key in all).map((key) => [key, all[key]!.name] as const);
}
