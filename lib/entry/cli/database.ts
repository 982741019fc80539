import "server-only";
import { closeDb, getDbHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { env, type Env } from "@/lib/foundation/env";
import { stopQueue } from "@/lib/records/queue/queue";
import { acquireDataDirLock, type DataDirLock } from "@/lib/entry/boot/data-dir-lock";
import type { DatabaseNeed } from "./io";

/** With the embedded database it first takes DATA_DIR's lock (as "cli"), so server and CLI never share the data directory. */
export function createCliDatabase(settings: Pick<Env, "DATABASE_URL" | "DATA_DIR"> = env()) {
  let lock: DataDirLock | null = null;
  let opened = false;
  return {
    async prepare(need: Exclude<DatabaseNeed, "none">): Promise<void> {
      if (!settings.DATABASE_URL) lock = acquireDataDirLock(settings.DATA_DIR, "cli");
      opened = true;
      const handle = await getDbHandle();
      if (need === "migrated") await migrateDatabase(handle);
    },
    async close(): Promise<void> {
      try {
        // Commands that enqueue (workspace resume) started the queue: stop it before its database.
        if (opened) await stopQueue();
        if (opened) await closeDb();
      } finally {
        lock?.release();
      }
    },
  };
}
