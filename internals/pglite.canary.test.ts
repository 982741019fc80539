import { parse, PGlite, protocol } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { date, integer, interval, numeric, pgTable, timestamp } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { drizzleClient } from "@/db/pglite-client";
import { itIsTheVersionWrittenFor, itStillHolds } from "./canary";
import {
  asStandaloneQuery,
  carryDrizzleParsers,
  namedStatementRunner,
  pgBossPglite,
  PGLITE,
  type RunNamed,
} from "./pglite";

// Every type Drizzle reads raw, with NULLs, infinities and array edge cases, beside types it does not.
const EVERY_TYPE = `
  select '2026-11-27 14:08:32.093+00'::timestamptz as tz, '2026-11-27 14:08:32.093456'::timestamp as ts,
         'infinity'::timestamptz as tz_inf, '2026-02-28'::date as day, '-infinity'::date as day_inf,
         '1 day 02:03:04'::interval as gap, null::timestamptz as tz_null,
         array['2026-11-27 14:08:32+00'::timestamptz, null] as tzs, array['2026-01-01 00:00:00'::timestamp] as tss,
         array['2026-01-01'::date, '2026-12-31'::date] as days, array['1 hour'::interval] as gaps,
         array[1.50, 2]::numeric[] as amounts, '{}'::timestamptz[] as none,
         1.25::numeric as amount, 7 as n, '{"a":1}'::jsonb as doc, true as yes, 'text' as words`;

const stamps = pgTable("stamps", {
  id: integer("id").primaryKey(),
  at: timestamp("at", { withTimezone: true, precision: 3, mode: "date" }).notNull(),
  atText: timestamp("at_text", { withTimezone: true, mode: "string" }),
  local: timestamp("local", { mode: "date" }),
  day: date("day", { mode: "string" }),
  dayDate: date("day_date", { mode: "date" }),
  gap: interval("gap"),
  amount: numeric("amount"),
});

const CREATE = `create table stamps (id int primary key, at timestamptz(3) not null, at_text timestamptz, local timestamp,
  day date, day_date date, gap interval, amount numeric)`;
const ROW = `insert into stamps values (1, '2026-11-27 14:08:32.093+00', '2026-11-27 14:08:32.093456+00', '2026-11-27 14:08:32.5',
  '2026-02-28', '2026-02-28', '3 days', 12.50)`;

describe("PGlite canary: the parsers carried by the instance", () => {
  let plain: PGlite;
  let carrying: PGlite;

  beforeAll(async () => {
    [plain, carrying] = await Promise.all([PGlite.create(), PGlite.create()]);
    carryDrizzleParsers(carrying);
    for (const db of [plain, carrying]) await db.exec(`${CREATE}; ${ROW}`);
  });
  afterAll(async () => {
    await Promise.all([plain?.close(), carrying?.close()]);
  });

  itStillHolds(PGLITE, "gives Drizzle the rows Drizzle's own per-query parsers give it", async () => {
    const before = drizzle(plain);
    const after = drizzle(drizzleClient(carrying));
    expect((await after.execute(sql.raw(EVERY_TYPE))).rows).toEqual((await before.execute(sql.raw(EVERY_TYPE))).rows);
    const selected = await after.select().from(stamps);
    expect(selected).toEqual(await before.select().from(stamps));
    expect(selected[0]).toMatchObject({
      at: new Date("2026-11-27T14:08:32.093Z"),
      day: "2026-02-28",
      gap: "3 days",
      amount: "12.50",
    });
    // Drizzle's transactions run their statements on the transaction object: the same rows there.
    const inTransaction = await after.transaction(async (tx) => (await tx.execute(sql.raw(EVERY_TYPE))).rows);
    expect(inTransaction).toEqual((await before.execute(sql.raw(EVERY_TYPE))).rows);
  });

  itStillHolds(PGLITE, "gives pg-boss the rows a plain instance gives (Dates for dates and timestamps)", async () => {
    const expected = await plain.query(EVERY_TYPE);
    const result = await pgBossPglite(carrying).query(EVERY_TYPE);
    expect(result.rows).toEqual(expected.rows);
    expect((result.rows[0] as { tz: unknown }).tz).toBeInstanceOf(Date);
    const [execResult] = await pgBossPglite(carrying).exec(EVERY_TYPE);
    expect(execResult.rows).toEqual((await plain.exec(EVERY_TYPE))[0].rows);
  });

  itStillHolds(PGLITE, "leaves the instance's own query alone for every other type", async () => {
    const { rows } = await carrying.query<{ n: number; doc: unknown; yes: boolean; tz: unknown }>(EVERY_TYPE);
    expect(rows[0]).toMatchObject({ n: 7, doc: { a: 1 }, yes: true, tz: "2026-11-27 14:08:32.093+00" });
  });
});

describe("PGlite canary: named prepared statements through the wire protocol", () => {
  let pglite: PGlite;
  let run: RunNamed;

  beforeAll(async () => {
    pglite = await PGlite.create();
    run = namedStatementRunner(pglite);
    await pglite.exec(
      "create table notes (id int primary key, body text not null, at timestamptz, done boolean, tags jsonb)",
    );
  });
  afterAll(async () => {
    await pglite?.close();
  });

  itIsTheVersionWrittenFor(PGLITE);

  itStillHolds(PGLITE, "the private members internals/pglite.ts calls are there", () => {
    const members = {
      _runExclusiveTransaction: pglite._runExclusiveTransaction,
      execProtocolStream: pglite.execProtocolStream,
      runExclusive: pglite.runExclusive,
    };
    for (const [name, member] of Object.entries(members)) expect(typeof member, name).toBe("function");
    expect(typeof pglite.serializers).toBe("object");
    expect(typeof pglite.parsers).toBe("object");
    for (const message of ["parse", "describe", "bind", "execute", "sync"] as const)
      expect(typeof protocol.serialize[message], message).toBe("function");
    expect(typeof parse.parseDescribeStatementResults).toBe("function");
    expect(typeof parse.parseResults).toBe("function");
  });

  itStillHolds(PGLITE, "a named statement is parsed once and returns what PGlite's own query returns", async () => {
    const insert = "insert into notes (id, body, at, done, tags) values ($1, $2, $3, $4, $5) returning *";
    const at = new Date("2026-11-27T14:08:32.093Z");
    const named = await run(insert, [1, "one", at, true, JSON.stringify({ a: [1, 2] })]);
    await run(insert, [2, "two", null, undefined, null]);
    expect(named.rows).toEqual((await pglite.query("select * from notes where id = 1")).rows);
    expect(named.rows[0]).toMatchObject({ id: 1, body: "one", at, done: true, tags: { a: [1, 2] } });
    expect((await pglite.query("select * from notes where id = 2")).rows[0]).toMatchObject({
      body: "two",
      at: null,
      done: null,
    });
    const prepared = await pglite.query<{ name: string }>(
      "select name from pg_prepared_statements where statement = $1",
      [insert],
    );
    expect(prepared.rows).toHaveLength(1);
    await expect(run(insert, [1, "again", null, null, null])).rejects.toMatchObject({ code: "23505" });
    expect((await run("select count(*)::int as n from notes", [])).rows).toEqual([{ n: 2 }]);
  });

  itStillHolds(PGLITE, "a standalone statement waits for an open transaction and is written after it", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    const transaction = pglite.transaction(async (tx) => {
      await tx.query("insert into notes (id, body) values (3, 'three')");
      opened();
      await held;
      await tx.rollback();
    });
    await open;
    const outside = asStandaloneQuery(pglite, () => run("select count(*)::int as n from notes where id = $1", [3]));
    release();
    await transaction;
    // Had it run inside the open transaction it would have counted the row rolled back.
    expect((await outside).rows).toEqual([{ n: 0 }]);
  });
});
