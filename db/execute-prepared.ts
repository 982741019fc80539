import { PgDialect } from "drizzle-orm/pg-core";
import { fillPlaceholders, type Query, type SQL } from "drizzle-orm";
import { executeAsPrepared, sessionClient } from "@/internals/drizzle";
import type { RunNamed } from "@/internals/pglite";
import type { Executor } from "./client";
import { RUN_NAMED } from "./pglite-client";

const dialect = new PgDialect();

/**
 * `db.execute(query)` as a named prepared statement on PostgreSQL: each connection parses and plans
 * the text once and then only binds and executes it (postgres.js keeps its statements by text), where
 * `execute` sends an unnamed statement that PostgreSQL parses and plans on every call. For the hot
 * path's statements whose text does not vary with their data (rows passed as one JSON parameter:
 * insert-json-rows.ts, the webhook outbox, the queue's job insert). Never for text built from a
 * varying number of parameters: every variant would stay prepared on every connection. PGlite runs
 * them as named statements of its one session too (db/pglite-client.ts).
 */
export function executePrepared(db: Executor, query: SQL) {
  return executeCompiled(db, dialect.sqlToQuery(query), {});
}

/**
 * A statement compiled once (SQL text and parameter list), its placeholders (`sql.placeholder(name)`)
 * filled from `values`: for a statement whose text never changes, building it with Drizzle's `sql`
 * on every call cost more CPU than running it (lib/sending/accept-statement.ts).
 */
export function compileOnce(query: SQL): Query {
  return dialect.sqlToQuery(query);
}

/** Runs a compileOnce statement as executePrepared does, with its placeholders' values. */
export function executeCompiled(db: Executor, query: Query, values: Record<string, unknown>) {
  // Drizzle's PGlite session ignores a query's name; the client it was given runs named statements.
  const runNamed = (sessionClient(db) as { [RUN_NAMED]?: RunNamed })[RUN_NAMED];
  if (runNamed) return runNamed(query.sql, fillPlaceholders(query.params, values));
  return executeAsPrepared(db, query, values);
}
