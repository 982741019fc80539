import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { describeBehind, passStoredTransactionIds } from "@/db/transaction-ids";

/**
 * The rows of every table of the public schema, and how to load them back: what the upgrade fixture
 * (scripts/upgrade-fixture/make.ts) saves from a release and db/upgrade/upgrade.test.ts loads and
 * compares after HEAD's migrations. Postgres itself writes each row (`to_jsonb`) and reads it back
 * (`jsonb_populate_recordset`), so every column type round-trips through its own text form; the
 * session's time zone is UTC so timestamps read the same on PGlite and PostgreSQL.
 */
export type Row = Record<string, unknown>;
export type Rows = Record<string, Row[]>;

type Result<T> = T[] | { rows: T[] };

function rowsOf<T>(result: unknown): T[] {
  const typed = result as Result<T>;
  return Array.isArray(typed) ? typed : typed.rows;
}

/** Tables of the public schema, by name (pg-boss keeps its own schema; drizzle's journal is in `drizzle`). */
export async function publicTables(db: Db): Promise<string[]> {
  const result = await db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  return rowsOf<{ table_name: string }>(result).map((row) => row.table_name);
}

/** Every row of every public table, each table's rows in a stable order (by their JSON text). */
export async function dumpRows(db: Db): Promise<Rows> {
  const tables = await publicTables(db);
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local timezone = 'UTC'`);
    const rows: Rows = {};
    for (const table of tables) {
      const result = await tx.execute(
        sql`select coalesce(jsonb_agg(to_jsonb(t) order by to_jsonb(t)::text), '[]'::jsonb) as rows from ${sql.identifier(table)} t`,
      );
      rows[table] = rowsOf<{ rows: Row[] | string }>(result)[0].rows as Row[];
      if (typeof rows[table] === "string") rows[table] = JSON.parse(rows[table] as unknown as string) as Row[];
    }
    return rows;
  });
}

/**
 * Replaces every table's rows with the given ones (a migration may have seeded some, e.g.
 * webhook_dispatch_state's single row), inserted exactly as they were: triggers and foreign-key checks are off for the load
 * (`session_replication_role = replica`), since the rows already hold what the triggers wrote (the
 * overview counts, the recipient index) and any table order is then fine. Sequences move past the
 * loaded ids afterwards. Needs a superuser, as the test harness's connections are.
 */
export async function loadRows(db: Db, rows: Rows): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local timezone = 'UTC'`);
    await tx.execute(sql`set local session_replication_role = replica`);
    const tables = sql.join(
      Object.keys(rows).map((table) => sql.identifier(table)),
      sql`, `,
    );
    await tx.execute(sql`truncate table ${tables}`);
    for (const [table, tableRows] of Object.entries(rows)) {
      if (tableRows.length === 0) continue;
      const columns = await insertableColumns(tx as unknown as Db, table, Object.keys(tableRows[0]));
      const list = sql.join(
        columns.map((column) => sql.identifier(column)),
        sql`, `,
      );
      await tx.execute(
        sql`insert into ${sql.identifier(table)} (${list}) overriding system value select ${list} from jsonb_populate_recordset(null::${sql.identifier(table)}, ${JSON.stringify(tableRows)}::jsonb)`,
      );
    }
  });
  await resetSequences(db);
  await passTransactionIds(db);
}

/**
 * The rows hold transaction ids of the database they came from (webhook_events.tx_id and the
 * fan-out's cursor): a fresh database starts below them, so it spends ids until it has passed them,
 * as the release's own database had (db/transaction-ids.ts, the same step as `db restore`'s).
 */
async function passTransactionIds(db: Db): Promise<void> {
  const result = await passStoredTransactionIds(db);
  if (result.outcome === "behind") throw new Error(describeBehind(result.horizon));
}

/** The row's columns the table lets one write (never a generated column). */
async function insertableColumns(db: Db, table: string, keys: string[]): Promise<string[]> {
  const result = await db.execute(
    sql`select column_name from information_schema.columns where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER'`,
  );
  const writable = new Set(rowsOf<{ column_name: string }>(result).map((row) => row.column_name));
  return keys.filter((key) => writable.has(key));
}

/** Each serial or identity column's sequence continues after the highest loaded value. */
async function resetSequences(db: Db): Promise<void> {
  const result = await db.execute(sql`select table_name, column_name from information_schema.columns
    where table_schema = 'public' and (column_default like 'nextval(%' or is_identity = 'YES')`);
  for (const { table_name: table, column_name: column } of rowsOf<{ table_name: string; column_name: string }>(
    result,
  )) {
    const qualified = `public.${JSON.stringify(table)}`;
    await db.execute(
      sql`select setval(pg_get_serial_sequence(${qualified}, ${column}), coalesce(max(${sql.identifier(column)}), 0) + 1, false) from ${sql.identifier(table)}`,
    );
  }
}

/** One JSON row per line, so a regenerated fixture diffs row by row. */
export function formatRows(rows: Rows): string {
  const tables = Object.entries(rows).map(([table, tableRows]) => {
    const lines = tableRows.map((row) => `    ${JSON.stringify(row)}`);
    return `  ${JSON.stringify(table)}: [${lines.length ? `\n${lines.join(",\n")}\n  ` : ""}]`;
  });
  return `{\n${tables.join(",\n")}\n}\n`;
}
