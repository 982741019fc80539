import { parse, protocol, types, type PGlite, type QueryOptions, type Results } from "@electric-sql/pglite";
import type { PGliteLike } from "pg-boss";

/**
 * Every reach into PGlite past its public query API (docs/architecture.md#dependency-internals):
 * its wire protocol and private lock for named prepared statements, and its parser table. The
 * canary, internals/pglite.canary.test.ts, fails naming what to re-check when PGlite changes.
 */
export const PGLITE = {
  dependency: "@electric-sql/pglite",
  writtenFor: "0.5.16",
  file: "internals/pglite.ts",
  recheck:
    "PGlite's _runExclusiveTransaction, execProtocolStream, serializers and parsers, protocol.serialize and parse " +
    "(namedStatementRunner, asStandaloneQuery), and whether query() still merges its per-query parsers over the instance's (carryDrizzleParsers)",
};

const { serialize } = protocol;

/** Runs one statement as a named prepared statement of the embedded database. */
export type RunNamed = (text: string, params: unknown[]) => Promise<Results>;

interface Prepared {
  name: string;
  /** The parameters' types as PostgreSQL inferred them: each value is serialized for its type. */
  types: number[];
}

/**
 * Named prepared statements on one instance, through PGlite's wire protocol: PGlite runs every query
 * as an unnamed statement, parsed, described and planned afresh in five calls into the database. A
 * named statement is parsed once per instance; each run is then one call (bind, describe, execute,
 * sync). Runs in the caller's transaction if one is open: `asStandaloneQuery` for outside one. One
 * runner per instance: it names its statements in turn, and a second would reuse the names.
 */
export function namedStatementRunner(pglite: PGlite): RunNamed {
  const statements = new Map<string, Prepared>();
  return (text, params) => pglite.runExclusive(() => runPrepared(pglite, statements, text, params));
}

async function runPrepared(
  pglite: PGlite,
  statements: Map<string, Prepared>,
  text: string,
  params: unknown[],
): Promise<Results> {
  let prepared = statements.get(text);
  if (!prepared) {
    const name = `postwerk_${statements.size + 1}`;
    const described = await pglite.execProtocolStream(
      concat(serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync()),
      { syncToFs: false },
    );
    prepared = { name, types: parse.parseDescribeStatementResults(described) };
    statements.set(text, prepared);
  }
  const { name, types: paramTypes } = prepared;
  const values = params.map((value, index) => {
    if (value === null || value === undefined) return null;
    const serializer = pglite.serializers[paramTypes[index]];
    return serializer ? serializer(value) : String(value);
  });
  const messages = await pglite.execProtocolStream(
    concat(
      serialize.bind({ statement: name, values }),
      serialize.describe({ type: "P" }),
      serialize.execute({}),
      serialize.sync(),
    ),
    { syncToFs: false },
  );
  return parse.parseResults(messages, pglite.parsers)[0];
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Runs `work` as PGlite runs its own standalone query: after any open transaction, then written to disk. */
export function asStandaloneQuery<T>(pglite: PGlite, work: () => Promise<T>): Promise<T> {
  return pglite._runExclusiveTransaction(async () => {
    const result = await work();
    await pglite.syncToFs();
    return result;
  });
}

/**
 * The types Drizzle reads from PGlite as PostgreSQL's raw text and decodes itself: timestamps, dates,
 * intervals and their arrays, and numeric[] (the per-query parsers of drizzle-orm/pglite's session;
 * the canary compares them).
 */
export const RAW_FOR_DRIZZLE = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231,
  1115,
  1185,
  1187,
  1182,
];

/** The element type of each array type above (PGlite's defaults parse the elements with it). */
const ELEMENT_OF: Record<number, number> = {
  1231: types.NUMERIC,
  1115: types.TIMESTAMP,
  1185: types.TIMESTAMPTZ,
  1187: types.INTERVAL,
  1182: types.DATE,
};

const raw = (value: string) => value;

/** PGlite's parse of each of those types, as an instance left alone does it: Dates, arrays of them, text. */
const PGLITE_DEFAULT: Record<number, (value: string) => unknown> = Object.fromEntries(
  RAW_FOR_DRIZZLE.map((type) => {
    const element = ELEMENT_OF[type];
    if (element === undefined) return [type, types.parsers[type] ?? raw];
    return [type, (value: string) => types.arrayParser(value, types.parsers[element] ?? raw, type)];
  }),
);

/**
 * The embedded database's parsers, paid once instead of on every query: Drizzle passes PGlite its own
 * parsers with every query, and PGlite then copies its whole parser table (one entry per type with an
 * array type, hundreds with this schema) into a new object for that query, more than most statements
 * cost to run. So the instance carries Drizzle's parsers itself and Drizzle's queries go without theirs
 * (`withoutParsers`): the same rows, no copy. pg-boss reads the same instance through `pgBossPglite`.
 */
export function carryDrizzleParsers(pglite: PGlite): void {
  for (const type of RAW_FOR_DRIZZLE) pglite.parsers[type] = raw;
}

/** Drizzle's per-query options without the parsers the instance now carries (`carryDrizzleParsers`). */
export function withoutParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  return options?.parsers ? { ...options, parsers: undefined } : options;
}

/** The instance as pg-boss's adapter reads it, with PGlite's own parse of the types Drizzle takes raw. */
export function pgBossPglite(pglite: Pick<PGlite, "query" | "exec" | "listen">): PGliteLike {
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
