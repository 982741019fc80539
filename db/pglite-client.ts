import type { PGlite, Transaction } from "@electric-sql/pglite";
import { asStandaloneQuery, namedStatementRunner, withoutParsers, type RunNamed } from "@/internals/pglite";

/**
 * The key under which Drizzle's client (and each transaction's) carries its RunNamed. From the global
 * registry: Next.js bundles this module into more than one chunk (the instrumentation that opens the
 * database, the routes that run statements on it), and each copy must find the other's.
 */
export const RUN_NAMED = Symbol.for("postwerk.pglite.runNamed");

/**
 * The client Drizzle is given for the embedded database: the instance's query and transaction (the
 * two methods drizzle-orm/pglite calls) without Drizzle's per-query parsers (`carryDrizzleParsers`),
 * and, for the statements the hot path runs through executeCompiled, named prepared statements
 * (internals/pglite.ts): PostgreSQL then plans them as it does a prepared statement on the server.
 */
export function drizzleClient(pglite: PGlite): PGlite {
  const runNamed = namedStatementRunner(pglite);
  // Outside a transaction, as PGlite's own query: wait for any open transaction, then write to disk.
  const runNamedStandalone: RunNamed = async (text, params) => {
    await turn();
    return asStandaloneQuery(pglite, () => runNamed(text, params));
  };
  const client = {
    query: async (text: string, params?: unknown[], options?: Parameters<PGlite["query"]>[2]) => {
      await turn();
      return pglite.query(text, params, withoutParsers(options));
    },
    transaction: async <T>(callback: (tx: Transaction) => Promise<T>) => {
      await turn();
      return pglite.transaction((tx) => callback(transactionClient(tx, runNamed)));
    },
    [RUN_NAMED]: runNamedStandalone,
  };
  return client as unknown as PGlite;
}

/**
 * Lets the event loop take its turn before a transaction or a standalone statement. PGlite runs each
 * statement synchronously and resolves its promise at once, so a worker's chain of transactions ran
 * as one unbroken run of microtasks: no socket was read meanwhile, and API requests waited behind a
 * delivery batch. setImmediate runs after the poll phase: the requests that arrived meanwhile are
 * read and take their place in the database's queue.
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
