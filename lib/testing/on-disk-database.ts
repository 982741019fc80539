import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, inject } from "vitest";
import { getDbHandle, installDbHandle, openPglite, type DbHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { getQueue, stopQueue } from "@/lib/records/queue/queue";
import { stopWorkers } from "@/lib/entry/worker/worker";

/**
 * Restart tests: embedded databases in real directories that a test closes ("crash") and reopens.
 * After each test, workers and queue stop, the databases close, the directories go, and the file's
 * own harness database is installed again.
 */
export async function onDiskDatabases() {
  const harnessHandle = await getDbHandle();
  const opened: DbHandle[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    await stopWorkers();
    await stopQueue();
    for (const handle of opened.splice(0)) await handle.close().catch(() => {});
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    installDbHandle(harnessHandle);
  });
  return {
    tempDir(prefix: string): string {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `postwerk-${prefix}-`));
      dirs.push(dir);
      return dir;
    },
    /**
     * Opens (or reopens) the directory, migrates, installs it as the process database, starts the queue. An
     * empty directory starts as a copy of the run's migrated dump when there is one (the PGlite run): the same
     * schema the migrations make, without running them all on disk (~10 s); migrateDatabase then checks it.
     */
    async boot(dir: string): Promise<DbHandle> {
      const dump = inject("testPgliteDump");
      const fresh = dump && !fs.existsSync(path.join(dir, "PG_VERSION"));
      const handle = await openPglite(dir, fresh ? new Blob([fs.readFileSync(dump)]) : undefined);
      opened.push(handle);
      await migrateDatabase(handle);
      installDbHandle(handle);
      await getQueue(); // installs the queue here and primes its cache before any transaction
      return handle;
    },
    /** Closes a database mid-test (a crash or a stop) so afterEach does not close it again. */
    async close(handle: DbHandle): Promise<void> {
      await handle.close();
      opened.splice(opened.indexOf(handle), 1);
    },
  };
}
