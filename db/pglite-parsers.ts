import { types, type PGlite, type QueryOptions, type Results } from "@electric-sql/pglite";
import type { PGliteLike } from "pg-boss";

/**
 * The types Drizzle reads from PGlite as PostgreSQL's raw text and decodes itself: timestamps, dates,
 * intervals and their arrays, and numeric[] (the list of drizzle-orm/pglite/session.js's query
 * options, tested against Drizzle in db/pglite-parsers.test.ts).
 */
const RAW_FOR_DRIZZLE = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];

/** The element type of each array type above (PGlite's defaults parse the elements with it). */
const ELEMENT_OF: Record<number, number> = { 1231: types.NUMERIC, 1115: types.TIMESTAMP, 1185: types.TIMESTAMPTZ, 1187: types.INTERVAL, 1182: types.DATE };

const raw = (value: string) => value;

/**
 * PGlite's parse of each of those types, as an instance left alone does it: Dates for dates and
 * timestamps, arrays of the same for the array types, the text for the rest.
 */
const PGLITE_DEFAULT: Record<number, (value: string) => unknown> = Object.fromEntries(
  RAW_FOR_DRIZZLE.map((type) => {
    const element = ELEMENT_OF[type];
    if (element === undefined) return [type, types.parsers[type] ?? raw];
    return [type, (value: string) => types.arrayParser(value, types.parsers[element] ?? raw, type)];
  }),
);

/**
 * The embedded database's parsers, paid once instead of on every query.
 *
 * Drizzle passes PGlite its own parsers with every query (raw text for the types above), and PGlite
 * then copies its whole parser table into a new object for that query: one entry per type that has
 * an array type, ~320 with this schema's tables, ~95 µs per statement, more than most statements
 * cost to run (an embedded delivery runs about fifteen). So the instance carries Drizzle's parsers
 * itself and Drizzle's queries go without theirs (db/pglite-client.ts): the same rows, no copy. pg-boss reads the same
 * instance and expects PGlite's own parse (Dates), so its queries get those types parsed back
 * (`pgBossPglite`).
 */
export function carryDrizzleParsers(pglite: PGlite): void {
  for (const type of RAW_FOR_DRIZZLE) pglite.parsers[type] = raw;
}

/** Drizzle's per-query options without the parsers the instance now carries (`carryDrizzleParsers`). */
export function withoutParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  return options?.parsers ? { ...options, parsers: undefined } : options;
}

/** The instance as pg-boss's adapter reads it, with PGlite's own parse of the types Drizzle takes raw. */
export function pgBossPglite(pglite: PGlite): PGliteLike {
  return {
    query: async (text, params) => parsedAsPglite(await pglite.query(text, params)),
    exec: async (text) => (await pglite.exec(text)).map(parsedAsPglite),
    listen: (channel, callback) => pglite.listen(channel, callback),
  };
}

function parsedAsPglite<T>(result: Results<T>): Results<T> {
  const fields = result.fields.filter((field) => PGLITE_DEFAULT[field.dataTypeID]);
  if (fields.length === 0) return result;
  for (const row of result.rows as Array<Record<string, unknown>>) {
    for (const { name, dataTypeID } of fields) {
      const value = row[name];
      if (typeof value === "string") row[name] = PGLITE_DEFAULT[dataTypeID](value);
    }
  }
  return result;
}
