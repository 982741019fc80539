import { PgDialect } from "drizzle-orm/pg-core";
import { fillPlaceholders, type Query, type SQL } from "drizzle-orm";
import { executeAsPrepared, sessionClient } from "@/internals/drizzle";
import type { RunNamed } from "@/internals/pglite";
import type { Executor } from "./client";
import { RUN_NAMED } from "./pglite-client";

const dialect = new PgDialect();

/** `db.execute` as a named prepared statement; only for text that does not vary with the data (each variant stays). */
export function executePrepared(db: Executor, query: SQL) {
  return executeCompiled(db, dialect.sqlToQuery(query), {});
}

/** A statement compiled once; its `sql.placeholder`s are filled from `values` when it runs. */
export function compileOnce(query: SQL): Query {
  return dialect.sqlToQuery(query);
}

export function executeCompiled(db: Executor, query: Query, values: Record<string, unknown>) {
  // Drizzle's PGlite session ignores a query's name; the client it was given runs named statements.
  const runNamed = (sessionClient(db) as { [RUN_NAMED]?: RunNamed })[RUN_NAMED];
  if (runNamed) return runNamed(query.sql, fillPlaceholders(query.params, values));
  return executeAsPrepared(db, query, values);
}
