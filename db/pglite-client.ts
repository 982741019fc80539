import { parse, protocol, type PGlite, type Results, type Transaction } from "@electric-sql/pglite";
import { withoutParsers } from "./pglite-parsers";

const { serialize } = protocol;

/** Runs one statement as a named prepared statement of the embedded database (executeCompiled). */
export type RunNamed = (text: string, params: unknown[]) => Promise<Results>;

/**
 * The key under which Drizzle's client (and each transaction's) carries its RunNamed. From the global
 * registry: Next.js bundles this module into more than one chunk (the instrumentation that opens the
 * database, the routes that run statements on it), and each copy must find the other's.
 */
export const RUN_NAMED = Symbol.for("postwerk.pglite.runNamed");

interface Prepared {
  name: string;
  /** The parameters' types as PostgreSQL inferred them: each value is serialized for its type. */
  types: number[];
}

/**
 * The client Drizzle is given for the embedded database: the instance's query and transaction (the
 * two methods drizzle-orm/pglite calls) without Drizzle's per-query parsers (db/pglite-parsers.ts),
 * and, for the statements the hot path runs through executeCompiled, named prepared statements.
 *
 * PGlite runs every query as an unnamed statement: parsed, described and planned afresh, in five
 * calls into the database. The accept statement spent 1.8 ms of its 2.8 ms in parse and plan. A named
 * statement is parsed once per instance; each run is then one call (bind, describe, execute, sync),
 * and PostgreSQL plans it as it does a prepared statement on the server (executePrepared's named
 * statements there).
 */
export function drizzleClient(pglite: PGlite): PGlite {
  const statements = new Map<string, Prepared>();
  const runNamed = (inTransaction: boolean): RunNamed => {
    const run = (text: string, params: unknown[]) => pglite.runExclusive(() => runPrepared(pglite, statements, text, params));
    if (inTransaction) return run;
    // Outside a transaction, as PGlite's own query: wait for any open transaction, then write to disk.
    return async (text, params) => {
      await turn();
      return pglite._runExclusiveTransaction(async () => {
        const result = await run(text, params);
        await pglite.syncToFs();
        return result;
      });
    };
  };
  const client = {
    query: async (text: string, params?: unknown[], options?: Parameters<PGlite["query"]>[2]) => {
      await turn();
      return pglite.query(text, params, withoutParsers(options));
    },
    transaction: async <T>(callback: (tx: Transaction) => Promise<T>) => {
      await turn();
      return pglite.transaction((tx) => callback(transactionClient(tx, runNamed(true))));
    },
    [RUN_NAMED]: runNamed(false),
  };
  return client as unknown as PGlite;
}

/**
 * Lets the event loop take its turn before a transaction or a standalone statement. PGlite runs each
 * statement synchronously and resolves its promise at once, so a worker's chain of transactions ran
 * as one unbroken run of microtasks: no socket was read meanwhile, and API requests waited for
 * seconds behind a delivery batch (the event loop stalled 700 ms at a time under 64 connections of
 * sends). setImmediate runs after the poll phase: the requests that arrived meanwhile are read and
 * take their place in the database's queue.
 */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function transactionClient(tx: Transaction, runNamed: RunNamed): Transaction {
  const wrapped = Object.create(tx) as Transaction & { [RUN_NAMED]: RunNamed };
  wrapped.query = (text, params, options) => tx.query(text, params, withoutParsers(options));
  wrapped[RUN_NAMED] = runNamed;
  return wrapped;
}

async function runPrepared(pglite: PGlite, statements: Map<string, Prepared>, text: string, params: unknown[]): Promise<Results> {
  let prepared = statements.get(text);
  if (!prepared) {
    const name = `postwerk_${statements.size + 1}`;
    const described = await pglite.execProtocolStream(concat(serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync()), { syncToFs: false });
    prepared = { name, types: parse.parseDescribeStatementResults(described) };
    statements.set(text, prepared);
  }
  const { name, types } = prepared;
  const values = params.map((value, index) => {
    if (value === null || value === undefined) return null;
    const serializer = pglite.serializers[types[index]];
    return serializer ? serializer(value) : String(value);
  });
  const messages = await pglite.execProtocolStream(
    concat(serialize.bind({ statement: name, values }), serialize.describe({ type: "P" }), serialize.execute({}), serialize.sync()),
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
