import "server-only";
import type { Executor } from "./client";

// Hot-path queries cost more to build than to run; one set per database object, built normally inside a transaction.
const cache = new WeakMap<object, Map<string, unknown>>();

export function preparedFor<T>(db: Executor, name: string, build: () => T): T {
  let queries = cache.get(db);
  if (!queries) cache.set(db, (queries = new Map()));
  let query = queries.get(name) as T | undefined;
  if (!query) queries.set(name, (query = build()));
  return query;
}
