import type { PGlite, Transaction } from "@electric-sql/pglite";
import { asStandaloneQuery, namedStatementRunner, withoutParsers, type RunNamed } from "@/internals/pglite";
import type { RemotePglite, RemoteTransaction } from "./pglite-thread/remote-pglite";

/** A global symbol: Next.js bundles this module into several chunks, and each copy must find the other's key. */
export const RUN_NAMED = Symbol.for("postwerk.pglite.runNamed");

/** Drizzle's PGlite client: no per-query parsers, and executeCompiled's statements run as named prepared ones. */
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

// PGlite resolves each statement at once: setImmediate lets requests that arrived meanwhile queue for the database.
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function transactionClient(tx: Transaction, runNamed: RunNamed): Transaction {
  const wrapped = Object.create(tx) as Transaction & { [RUN_NAMED]: RunNamed };
  wrapped.query = (text, params, options) => tx.query(text, params, withoutParsers(options));
  wrapped[RUN_NAMED] = runNamed;
  return wrapped;
}

/**
 * Drizzle's client for the embedded database in its own thread (db/pglite-thread): the same calls, each
 * a message to the thread, which runs them through PGlite with the same parsers and named statements.
 * No turn before each: every answer already arrives as a message, after the requests waiting to be read.
 */
export function threadedDrizzleClient(remote: RemotePglite): PGlite {
  const inTransaction = (tx: RemoteTransaction) =>
    Object.assign(Object.create(tx) as RemoteTransaction, { [RUN_NAMED]: tx.runNamed });
  const client = {
    query: (text: string, params?: unknown[], options?: Parameters<PGlite["query"]>[2]) =>
      remote.query(text, params, options),
    transaction: <T>(callback: (tx: Transaction) => Promise<T>) =>
      remote.transaction((tx) => callback(inTransaction(tx) as unknown as Transaction)),
    [RUN_NAMED]: remote.runNamed,
  };
  return client as unknown as PGlite;
}
