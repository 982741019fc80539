import { PGlite, type QueryOptions } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { getDbHandle, type DbHandle } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { drizzleClient, RUN_NAMED } from "@/db/pglite-client";
import { itIsTheVersionWrittenFor, itStillHolds } from "./canary";
import { DRIZZLE, executeAsPrepared, sessionClient } from "./drizzle";
import { RAW_FOR_DRIZZLE } from "./pglite";

describe("Drizzle canary: a database's session", () => {
  let handle: DbHandle;
  let pglite: PGlite;

  beforeAll(async () => {
    handle = await getDbHandle();
    pglite = await PGlite.create();
  });
  afterAll(async () => {
    await pglite?.close();
  });

  itIsTheVersionWrittenFor(DRIZZLE);

  itStillHolds(DRIZZLE, "a session's client is the one given to drizzle(), in a transaction the driver's", async () => {
    const client = drizzleClient(pglite);
    const embedded = drizzlePglite(client);
    expect(sessionClient(embedded)).toBe(client);
    const inTransaction = await embedded.transaction(async (tx) => sessionClient(tx) as Record<symbol, unknown>);
    expect(typeof inTransaction[RUN_NAMED]).toBe("function");
    const pool = postgres("postgres://nobody@127.0.0.1:1/never-connected");
    expect(sessionClient(drizzlePostgres(pool))).toBe(pool);
    await pool.end();
  });

  itStillHolds(DRIZZLE, "prepareQuery with a name runs a compiled statement, prepared on PostgreSQL", async () => {
    const query = new PgDialect().sqlToQuery(
      sql`select ${sql.placeholder("n")}::int + 1 as next, 'drizzle canary' as marker`,
    );
    const statements = await handle.db.transaction(async (tx) => {
      expect(rowsOf(await executeAsPrepared(tx, query, { n: 41 }))).toEqual([{ next: 42, marker: "drizzle canary" }]);
      return rowsOf(await tx.execute(sql`select statement from pg_prepared_statements`));
    });
    // postgres.js prepares what Drizzle hands it with a name; PGlite's session runs it unnamed.
    const prepared = statements.filter((row) => row.statement === query.sql);
    expect(prepared).toHaveLength(handle.driver === "postgres" ? 1 : 0);
  });

  itStillHolds(DRIZZLE, "drizzle-orm/pglite passes its own parsers for exactly RAW_FOR_DRIZZLE's types", async () => {
    const seen: Array<QueryOptions | undefined> = [];
    const client = {
      query: (text: string, params?: unknown[], options?: QueryOptions) => (
        seen.push(options),
        pglite.query(text, params, options)
      ),
    };
    const db = drizzlePglite(client as unknown as PGlite);
    await db.execute(sql`select 1`);
    await db.select({ one: sql<number>`1` }).from(sql`(select 1) as t`);
    expect(seen).toHaveLength(2);
    for (const options of seen)
      expect(
        Object.keys(options?.parsers ?? {})
          .map(Number)
          .sort(),
      ).toEqual([...RAW_FOR_DRIZZLE].sort());
  });
});
