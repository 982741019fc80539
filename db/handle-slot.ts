import { processSingleton } from "@/lib/foundation/process-singleton";
import type { DbHandle } from "./client";

/**
 * The process's database handle, and how the next first use opens it when not from the settings. Apart from
 * client.ts so the test harness can name a file's database without loading the drivers a pure test never needs.
 */
export const dbSlot = processSingleton<{ handle?: Promise<DbHandle>; opener?: () => Promise<DbHandle> }>(
  "db.handle",
  () => ({}),
);

/** Tests: the database the next first use opens instead of the settings' (a file's own copy), only if asked for. */
export function installDbOpener(open: () => Promise<DbHandle>): void {
  dbSlot.handle = undefined;
  dbSlot.opener = open;
}

/** Whether this process opened (or is opening) its database: nothing can have used it otherwise. */
export function isDbOpen(): boolean {
  return dbSlot.handle !== undefined;
}
