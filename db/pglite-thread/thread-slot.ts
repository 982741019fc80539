import type { StartDatabaseThread } from "./thread-client";

/**
 * Where server/server.mjs leaves the starter of the embedded database's thread. Only that plain-Node entry
 * starts threads: Next.js compiles the rest, and its tracer takes in the whole project for a `new Worker`
 * whose path it cannot resolve. `next dev`, the tests and the CLI find no starter and open PGlite in-process.
 */
const SLOT = Symbol.for("postwerk.pgliteThread");

export function databaseThreadStarter(): StartDatabaseThread | undefined {
  return (globalThis as { [SLOT]?: { start: StartDatabaseThread } })[SLOT]?.start;
}
