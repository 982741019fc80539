import "server-only";
import path from "node:path";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { DbHandle } from "./client";

const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");
/** Any fixed number: serialises migrations when several processes boot against one server. */
const MIGRATION_LOCK = 7_245_001;

/** The one migration entry point (boot, CLI, tests); the queue's own schema is installed by `installQueue`. */
export async function migrateDatabase(handle: DbHandle): Promise<void> {
  if (handle.driver === "pglite") {
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  // A session advisory lock: a second process booting at once waits, then finds nothing to do.
  await withSessionLock(handle, () => migratePostgres(handle.db, { migrationsFolder: MIGRATIONS_FOLDER }));
}

async function withSessionLock(handle: DbHandle, work: () => Promise<void>): Promise<void> {
  const postgres = (await import("postgres")).default;
  const lockClient = postgres(handle.connectionString!, { max: 1, onnotice: () => {} });
  try {
    await lockClient`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await work();
    await lockClient`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await lockClient.end({ timeout: 5 });
  }
}

let committed: number[] | undefined;

/** Committed migrations newer than the last applied (drizzle's own test), for the readiness check. */
export async function pendingMigrations(handle: DbHandle): Promise<number[]> {
  committed ??= readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((migration) => migration.folderMillis);
  const rows = (await handle.db.execute(
    sql`select max(created_at) as last from drizzle.__drizzle_migrations`,
  )) as unknown as Array<{ last: string | number | null }> | { rows: Array<{ last: string | number | null }> };
  const last = Number((Array.isArray(rows) ? rows : rows.rows)[0]?.last ?? 0);
  return committed.filter((when) => when > last);
}
