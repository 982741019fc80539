/**
 * postgres.js (the `postgres` package) runs patched: internals/patches/postgres+3.4.9.patch, applied
 * by patch-package at install (package.json `postinstall`). It fixes how a connection recovers from a
 * terminated backend (docs/development.md#traps, trap 12: a stale write buffer and timer, a query
 * left waiting between a socket's `error` and `close`, an unawaited array-type lookup), in the three
 * builds of connection.js (cf, cjs, src). The canary, internals/postgres-js.canary.test.ts, checks
 * that every line the patch adds is in node_modules/postgres.
 */
export const POSTGRES_JS = {
  dependency: "postgres",
  writtenFor: "3.4.9",
  file: "internals/postgres-js.ts",
  patch: "internals/patches/postgres+3.4.9.patch",
  recheck:
    "whether the new release fixes porsager/postgres#1176 and #1208 and the two other faults of docs/development.md trap 12: " +
    "if so, delete the patch; if not, rebuild it with `npx patch-package postgres --patch-dir internals/patches`. " +
    "Either way run db/pool-recovery.test.ts and lib/delivery/outage-recording.test.ts on PostgreSQL",
};
