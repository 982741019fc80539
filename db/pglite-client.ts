import type { PGlite, Transaction } from "@electric-sql/pglite";
import { asStandaloneQuery, namedStatementRunner, withoutParsers, type RunNamed } from "@/internals/pglite";

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
