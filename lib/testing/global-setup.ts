import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import postgres from "postgres";
import { openPglite, openPostgres, type DbHandle } from "../../db/client";
import { migrateDatabase } from "../../db/migrate";
import { createBoss, installQueue } from "@/lib/records/queue/queue";

/**
 * Runs once per test run. With DATABASE_URL: creates a fresh database on that server, migrates it,
 * and drops it afterwards. Without: migrates one in-memory PGlite and dumps it, so every test file
 * opens its own copy in ~0.3 s instead of initialising and migrating again (docs/development.md#traps, trap 4).
 */
let teardownTasks: Array<() => Promise<void>> = [];

export async function setup(project: TestProject) {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `test_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const handle = await openPostgres(url.toString(), 2);
    await prepare(handle);
    await handle.close();
    // Each test file clones this migrated template into a database of its own (setup-db.ts), so
    // one file's workers never deliver another file's messages.
    project.provide("testDatabaseUrl", url.toString());
    project.provide("testPgliteDump", "");
    teardownTasks.push(async () => {
      const leftovers = await admin<
        { datname: string }[]
      >`select datname from pg_database where datname like ${`${name}%`}`;
      for (const { datname } of leftovers) await admin.unsafe(`drop database if exists ${datname} with (force)`);
      await admin.end();
    });
    return;
  }
  const handle = await openPglite("memory://");
  await prepare(handle);
  const dump = await handle.pglite.dumpDataDir("none");
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-test-")), "pglite.tar");
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide("testDatabaseUrl", "");
  project.provide("testPgliteDump", file);
  teardownTasks.push(async () => fs.rmSync(path.dirname(file), { recursive: true, force: true }));
}

export async function teardown() {
  for (const task of teardownTasks) await task();
  teardownTasks = [];
}

async function prepare(handle: DbHandle) {
  await migrateDatabase(handle);
  const boss = createBoss(handle);
  await boss.start();
  await installQueue(boss);
  await boss.stop({ graceful: false, close: handle.driver === "postgres" });
}

declare module "vitest" {
  export interface ProvidedContext {
    testDatabaseUrl: string;
    testPgliteDump: string;
  }
}
