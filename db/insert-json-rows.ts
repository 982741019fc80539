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
  const first = rows[0] as Record<string, unknown>;
  const columns = Object.entries(getTableColumns(table)).filter(([key]) => key in first);
  const records = rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (const [key, column] of columns) record[column.name] = (row as Record<string, unknown>)[key] ?? null;
    return record;
  });
  const names = sql.join(
    columns.map(([, column]) => sql.identifier(column.name)),
    sql`, `,
  );
  const conflict = options.onConflict ? sql` ${options.onConflict}` : sql``;
  await executePrepared(db, sql`insert into ${table} (${names}) select ${names} from json_populate_recordset(null::${table}, ${wellFormedJson(records)}::json)${conflict}`);
}
