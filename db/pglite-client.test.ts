import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgliteHandle, type Db } from "./client";
import { compileOnce, executeCompiled, executePrepared } from "./execute-prepared";

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

describe("executeCompiled on the embedded database: named prepared statements", () => {
  let pglite: PGlite;
  let db: Db;

  beforeAll(async () => {
    pglite = await PGlite.create();
    db = pgliteHandle(pglite).db;
    await pglite.exec(
      "create table notes (id int primary key, body text not null, at timestamptz not null default now(), tags jsonb)",
    );
  });
  afterAll(async () => {
    await pglite?.close();
  });

  const insert = compileOnce(sql`
    insert into notes (id, body, tags) select n.id, n.body, n.tags from json_to_recordset(${sql.placeholder("rows")}::json) as n(id int, body text, tags jsonb)
    returning id, body, at, tags`);

  it("parses a statement once and returns what an unnamed run of it returns", async () => {
    const named = rowsOf<{ id: number; body: string; at: string; tags: unknown }>(
      await executeCompiled(db, insert, { rows: JSON.stringify([{ id: 1, body: "one", tags: ["a"] }]) }),
    );
    await executeCompiled(db, insert, { rows: JSON.stringify([{ id: 2, body: "two", tags: null }]) });
    const unnamed = rowsOf(await db.execute(sql`select id, body, at, tags from notes where id = 1`));
    expect(named).toEqual(unnamed);
    expect(named[0]).toMatchObject({ id: 1, body: "one", tags: ["a"] });
    expect(typeof named[0].at).toBe("string"); // raw, as Drizzle reads timestamps
    const prepared = rowsOf<{ statement: string }>(await pglite.query("select statement from pg_prepared_statements"));
    expect(prepared.filter((row) => row.statement === insert.sql)).toHaveLength(1);
  });

  it("runs inside the caller's transaction: its writes roll back with it", async () => {
    await expect(
      db.transaction(async (tx) => {
        await executeCompiled(tx, insert, { rows: JSON.stringify([{ id: 3, body: "three" }]) });
        const seen = rowsOf<{ n: number }>(
          await executePrepared(tx, sql`select count(*)::int as n from notes where id = ${3}`),
        );
        expect(seen[0].n).toBe(1);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from notes where id = 3`))[0].n).toBe(
      0,
    );
  });

  it("outside a transaction, waits for an open one instead of running inside it", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedOnce = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = db.transaction(async (tx) => {
      await executeCompiled(tx, insert, { rows: JSON.stringify([{ id: 4, body: "four" }]) });
      inserted();
      await held;
      throw new Error("roll back");
    });
    await insertedOnce;
    const outside = executePrepared(db, sql`select count(*)::int as n from notes where id = ${4}`);
    release();
    await expect(transaction).rejects.toThrow("roll back");
    // Had it run inside the open transaction it would have counted the row that was rolled back.
    expect(rowsOf<{ n: number }>(await outside)[0].n).toBe(0);
  });

  it("reports a failing run with PostgreSQL's code and leaves the connection usable", async () => {
    await expect(
      executeCompiled(db, insert, { rows: JSON.stringify([{ id: 1, body: "again" }]) }),
    ).rejects.toMatchObject({ code: "23505" });
    const after = rowsOf<{ id: number }>(
      await executeCompiled(db, insert, { rows: JSON.stringify([{ id: 5, body: "five" }]) }),
    );
    expect(after.map((row) => row.id)).toEqual([5]);
  });
});
