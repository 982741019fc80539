import type { Query } from "drizzle-orm";
import type { PgSession } from "drizzle-orm/pg-core";

/**
 * Every reach into Drizzle past its public query API (docs/architecture.md#dependency-internals): a
 * database's session, to run a compiled statement as a prepared one and to find the client the
 * session was given. The canary, internals/drizzle.canary.test.ts, says what to re-check.
 */
export const DRIZZLE = {
  dependency: "drizzle-orm",
  writtenFor: "0.45.4",
  file: "internals/drizzle.ts",
  recheck:
    "the `_.session` of a database and of a transaction: its `client` field and `prepareQuery(query, fields, name, arrayMode)` " +
    "(postgres-js prepares when given a name), and the per-query parsers of drizzle-orm/pglite's session (internals/pglite.ts RAW_FOR_DRIZZLE)",
};

/** A Drizzle database or transaction of either driver: what the reach reads of one. */
export interface WithSession {
  readonly _: { readonly session: object };
}

/**
 * Runs a compiled statement (SQL text and parameters, placeholders filled from `values`) through the
 * session as a named prepared statement: postgres.js then prepares it on each connection once, keyed
 * by its text, where `db.execute` sends an unnamed statement the server parses and plans every time.
 * Drizzle's public `.prepare(name)` exists only on its query builders, not on a raw `sql` statement.
 */
export function executeAsPrepared(db: WithSession, query: Query, values: Record<string, unknown>) {
  return (db._.session as PgSession).prepareQuery(query, undefined, "hot", false).execute(values);
}

/** The client the session runs its statements on: the one given to `drizzle()`, or the driver's transaction. */
export function sessionClient(db: WithSession): unknown {
  return (db._.session as unknown as { client: unknown }).client;
}
