import "server-only";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { env } from "@/lib/foundation/env";
import { dbSlot } from "./handle-slot";
import * as schema from "./schema";
import { drizzleClient } from "./pglite-client";
import { connectDatabaseThread, type EmbeddedClient, type StartDatabaseThread } from "./pglite-thread/thread-client";
import { databaseThreadStarter } from "./pglite-thread/thread-slot";
import { carryDrizzleParsers } from "@/internals/pglite";

/** The query-builder surface both drivers share, typed as one so use cases stay driver-agnostic. */
export type Db = PostgresJsDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Executor = Db | Tx;

export interface DbHandle {
  db: Db;
  driver: "pglite" | "postgres";
  /** Embedded driver only: pg-boss runs on the same single connection (`pgBossPglite`). */
  pglite?: EmbeddedClient;
  connectionString?: string;
  close(): Promise<void>;
}

/** One per process, so route bundles and instrumentation share one owner of the database. */
const current = dbSlot;

/** The process's database, opened on first use and never at import (`next build` must not open the data directory). */
export function getDbHandle(): Promise<DbHandle> {
  if (!current.handle) {
    const opener = current.opener;
    current.opener = undefined;
    const opening = opener ? opener() : openFromSettings();
    // Never cache a rejected open (docs/development.md#traps, trap 4): the next caller tries again.
    current.handle = opening.catch((error) => {
      current.handle = undefined;
      current.opener = opener;
      throw error;
    });
  }
  return current.handle;
}

export async function getDb(): Promise<Db> {
  return (await getDbHandle()).db;
}

export function installDbHandle(handle: DbHandle): void {
  current.handle = Promise.resolve(handle);
}

function openFromSettings(): Promise<DbHandle> {
  const { DATABASE_URL, DATA_DIR, PGLITE_THREAD } = env();
  if (DATABASE_URL) return openPostgres(DATABASE_URL);
  const dataDir = path.join(DATA_DIR, "pglite");
  const startThread = PGLITE_THREAD ? databaseThreadStarter() : undefined;
  return startThread ? openPgliteOnThread(startThread, dataDir) : openPglite(dataDir);
}

export async function closeDb(): Promise<void> {
  const handle = current.handle;
  current.handle = undefined;
  if (handle) await (await handle).close();
}

export async function openPglite(dataDir: string, loadDataDir?: Blob): Promise<DbHandle & { pglite: PGlite }> {
  if (!dataDir.startsWith("memory://")) fs.mkdirSync(dataDir, { recursive: true });
  // PGlite ships pg_trgm (the subject search's index) as a bundle loaded at every open, before any migration.
  const pglite = await PGlite.create({ dataDir, loadDataDir, extensions: { pg_trgm } });
  return pgliteHandle(pglite);
}

export function pgliteHandle(pglite: PGlite): DbHandle & { pglite: PGlite } {
  carryDrizzleParsers(pglite);
  const db = drizzlePglite(drizzleClient(pglite), { schema }) as unknown as Db;
  return { db, driver: "pglite", pglite, close: () => pglite.close() };
}

/** The embedded database on a thread of its own (docs/architecture.md#the-embedded-database-on-its-own-thread). */
export async function openPgliteOnThread(start: StartDatabaseThread, dataDir: string): Promise<DbHandle> {
  if (!dataDir.startsWith("memory://")) fs.mkdirSync(dataDir, { recursive: true });
  const client = await connectDatabaseThread(start({ dataDir }));
  const db = drizzlePglite(client as PGlite, { schema }) as unknown as Db;
  return { db, driver: "pglite", pglite: client, close: () => client.close() };
}

// Capped: postgres.js's default grows with the whole pool's failures, long past a restart (db/pool-recovery.test.ts).
function reconnectDelaySeconds(retries: number): number {
  return Math.min(0.05 * retries, 0.5) * (0.5 + Math.random() / 2);
}

export async function openPostgres(connectionString: string, max = 10): Promise<DbHandle> {
  const client = postgres(connectionString, { max, onnotice: () => {}, backoff: reconnectDelaySeconds });
  await client`select 1`;
  const db = drizzlePostgres(client, { schema });
  return { db, driver: "postgres", connectionString, close: () => client.end({ timeout: 5 }) };
}
