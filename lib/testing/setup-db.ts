import fs from "node:fs";
import { afterAll, inject } from "vitest";
import { closeDb, openPglite, openPostgres, installDbHandle } from "@/db/client";
import { stopWorkers } from "@/lib/jobs/worker";
import { stopQueue } from "@/lib/jobs/queue";

/**
 * Each test file gets its own database: a copy of the migrated PGlite dump, or a pool on the run's
 * PostgreSQL database (shared by files; tests isolate themselves by creating their own workspace).
 */
const url = inject("testDatabaseUrl");
if (url) {
  process.env.DATABASE_URL = url;
  installDbHandle(await openPostgres(url, 5));
} else {
  delete process.env.DATABASE_URL;
  const dump = new Blob([fs.readFileSync(inject("testPgliteDump"))]);
  installDbHandle(await openPglite("memory://", dump));
}

afterAll(async () => {
  await stopWorkers();
  await stopQueue();
  await closeDb();
});
