import "server-only";
import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "@/db/client";
import { wellFormedJson } from "@/db/well-formed-json";
import { executePrepared } from "./execute-prepared";

/** A multi-row INSERT, the rows one JSON parameter (not one per cell); columns are the first row's keys. */
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

// insertJsonRows' statement inside a larger one: `computed` replaces a column by an SQL expression, `where` filters.
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
