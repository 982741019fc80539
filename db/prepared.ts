import "server-only";
import type { Executor } from "./client";

/**
 * Prepared Drizzle queries for the hot path (authentication, the lookups of every send): building a
 * query costs more CPU than running it (~0.35 ms against ~0.1 ms here). One per database object, so
 * a test that installs another database gets its own; inside a transaction callers build normally.
 */
const cache = new WeakMap<object, Map<string, unknown>>();

export function preparedFor<T>(db: Executor, name: string, build: () => T): T {
  let queries = cache.get(db);
  if (!queries) cache.set(db, (queries = new Map()));
  let query = queries.get(name) as T | undefined;
  if (!query) queries.set(name, (query = build()));
  return query;
}
