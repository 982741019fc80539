import type { SQLWrapper } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Executor } from "./client";

/**
 * Runs a select of one table's columns and decodes each row with the columns' own decoders (the
 * timestamp's string → Date, jsonb's text → value), as Drizzle does, without Drizzle's row mapper:
 * that one checks every cell's field with `is(field, Column)`, a prototype walk, and iterates its
 * path. On a page of 50 messages × 37 columns it was about a third of the app's CPU for the request
 * (docs/benchmarks.md#lists-at-scale). For hot read paths of a single table only: rows are keyed by
 * column name, so two tables' columns of the same name would collide.
 */
export async function selectColumns<T>(db: Executor, query: SQLWrapper, columns: Record<string, PgColumn>): Promise<T[]> {
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
