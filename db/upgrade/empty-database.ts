import fs from "node:fs";
import postgres from "postgres";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { openPglite, openPostgres, type DbHandle } from "@/db/client";
import { assembleReleasedMigrations } from "./released-migrations";

/**
 * The upgrade test's database: empty, not the harness's migrated copy (lib/testing/setup-db.ts).
 * Embedded, a new in-memory PGlite; with DATABASE_URL (the harness's own scratch database), a
 * sibling database on the same server, dropped by `drop`.
 */
export async function openEmptyDatabase(): Promise<{ handle: DbHandle; drop(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const handle = await openPglite("memory://");
    return { handle, drop: () => handle.close() };
  }
  const url = new URL(serverUrl);
  const name = `${url.pathname.slice(1)}_upgrade`;
  const admin = postgres(Object.assign(new URL(serverUrl), { pathname: "/postgres" }).toString(), {
    max: 1,
    onnotice: () => {},
  });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  url.pathname = `/${name}`;
  const handle = await openPostgres(url.toString(), 5);
  return {
    handle,
    async drop() {
      await handle.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/**
 * A release's own migrations (its manifest's files, taken from HEAD after checking their hashes),
 * applied as that release's `migrateDatabase` applied them (drizzle's migrator).
 */
export async function applyMigrationsFrom(handle: DbHandle, release: string): Promise<void> {
  const migrationsFolder = assembleReleasedMigrations(release);
  try {
    if (handle.driver === "pglite") await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder });
    else await migratePostgres(handle.db, { migrationsFolder });
  } finally {
    fs.rmSync(migrationsFolder, { recursive: true, force: true });
  }
}
