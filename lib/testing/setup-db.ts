import fs from "node:fs";
import postgres from "postgres";
import { afterAll, inject } from "vitest";
import { installDbOpener, isDbOpen } from "@/db/handle-slot";

/**
 * Each test file gets a database of its own: a copy of the migrated PGlite dump, loaded on first use, or on
 * PostgreSQL a clone of the run's migrated template database (CREATE DATABASE … TEMPLATE), dropped afterwards.
 */
const templateUrl = inject("testDatabaseUrl");
let dropDatabase: (() => Promise<void>) | undefined;

if (templateUrl) {
  const url = new URL(templateUrl);
  const template = url.pathname.slice(1);
  const name = `${template}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  const admin = postgres({ ...adminOptions(url), max: 1, onnotice: () => {} });
  await cloneWithRetry(admin, name, template);
  // Before any connection, so every session on it (worker processes too) has it: a commit no longer waits
  // for its WAL flush (~3.5 ms each here), yet is visible to other sessions all the same. Only a crash of
  // the server itself, which no test causes, could lose such commits.
  await admin.unsafe(`alter database ${name} set synchronous_commit = off`);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  const { openPostgres } = await import("@/db/client");
  const handle = await openPostgres(url.toString(), 5);
  installDbOpener(async () => handle);
  dropDatabase = async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
} else {
  delete process.env.DATABASE_URL;
  // Loading the dump is most of a file's setup: a file that never asks for the database (pure rules) skips it.
  const dumpPath = inject("testPgliteDump");
  installDbOpener(async () => {
    const { openPglite } = await import("@/db/client");
    return openPglite("memory://", new Blob([fs.readFileSync(dumpPath)]));
  });
}

afterAll(async () => {
  // Imported here, not above: the worker's module graph is the whole service, which a pure test file never loads.
  if (isDbOpen()) {
    const [{ flushActivityLog }, { stopWorkers }, { stopQueue }, { closeDb }] = await Promise.all([
      import("@/lib/records/activity/record-activity"),
      import("@/lib/entry/worker/worker"),
      import("@/lib/records/queue/queue"),
      import("@/db/client"),
    ]);
    await flushActivityLog();
    await stopWorkers();
    await stopQueue();
    await closeDb();
  }
  await dropDatabase?.();
});

function adminOptions(url: URL) {
  const admin = new URL(url);
  admin.pathname = "/postgres";
  return {
    host: admin.hostname,
    port: Number(admin.port || 5432),
    user: decodeURIComponent(admin.username || "postgres"),
    password: decodeURIComponent(admin.password) || undefined,
    database: "postgres",
  };
}

/** Two files cloning the same template at the same instant may collide; the loser tries again. */
async function cloneWithRetry(admin: postgres.Sql, name: string, template: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.unsafe(`create database ${name} template ${template}`);
      return;
    } catch (error) {
      if (attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}
