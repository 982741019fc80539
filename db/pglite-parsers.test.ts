import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { date, integer, interval, numeric, pgTable, timestamp } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drizzleClient } from "./pglite-client";
import { pgBossPglite, carryDrizzleParsers } from "./pglite-parsers";

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

describe("PGlite's parsers carried by the instance", () => {
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

  it("gives Drizzle the rows Drizzle's own per-query parsers give it", async () => {
    const before = drizzle(plain);
    const after = drizzle(drizzleClient(carrying));
    expect((await after.execute(sql.raw(EVERY_TYPE))).rows).toEqual((await before.execute(sql.raw(EVERY_TYPE))).rows);
    const selected = await after.select().from(stamps);
    expect(selected).toEqual(await before.select().from(stamps));
    expect(selected[0]).toMatchObject({ at: new Date("2026-11-27T14:08:32.093Z"), day: "2026-02-28", gap: "3 days", amount: "12.50" });
    // Drizzle's transactions run their statements on the transaction object: the same rows there.
    const inTransaction = await after.transaction(async (tx) => (await tx.execute(sql.raw(EVERY_TYPE))).rows);
    expect(inTransaction).toEqual((await before.execute(sql.raw(EVERY_TYPE))).rows);
  });

  it("gives pg-boss the rows a plain instance gives (Dates for dates and timestamps)", async () => {
    const expected = await plain.query(EVERY_TYPE);
    const result = await pgBossPglite(carrying).query(EVERY_TYPE);
    expect(result.rows).toEqual(expected.rows);
    expect((result.rows[0] as { tz: unknown }).tz).toBeInstanceOf(Date);
    const [execResult] = await pgBossPglite(carrying).exec(EVERY_TYPE);
    expect(execResult.rows).toEqual((await plain.exec(EVERY_TYPE))[0].rows);
  });

  it("leaves the instance's own query alone for every other type", async () => {
    const { rows } = await carrying.query<{ n: number; doc: unknown; yes: boolean; tz: unknown }>(EVERY_TYPE);
    expect(rows[0]).toMatchObject({ n: 7, doc: { a: 1 }, yes: true, tz: "2026-11-27 14:08:32.093+00" });
  });
});
