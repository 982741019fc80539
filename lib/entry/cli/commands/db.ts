import "server-only";
import { count } from "drizzle-orm";
import { integer, pgSchema } from "drizzle-orm/pg-core";
import { getDbHandle, type DbHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { emit, parseFlags, type CliCommand } from "../io";

/** drizzle-kit's journal of applied migrations (read only, to report what `db migrate` did). */
const appliedMigrations = pgSchema("drizzle").table("__drizzle_migrations", { id: integer("id") });

export const dbCommands: Record<string, CliCommand> = {
  "db migrate": {
    usage: "db migrate [--json]",
    summary: "Apply the database migrations (the server also does this at boot).",
    database: "open",
    async run(args, context) {
      parseFlags(args, {});
      const handle = await getDbHandle();
      const before = await countApplied(handle);
      await migrateDatabase(handle);
      const after = await countApplied(handle);
      emit(context, { driver: handle.driver, applied: after - before, total: after }, [
        after > before
          ? `Applied ${after - before} migration(s) on ${describe(handle)}; ${after} in total.`
          : `The database (${describe(handle)}) is up to date: ${after} migration(s) applied.`,
      ]);
    },
  },
};

async function countApplied(handle: DbHandle): Promise<number> {
  try {
    const [row] = await handle.db.select({ value: count() }).from(appliedMigrations);
    return row.value;
  } catch {
    return 0;
  }
}

function describe(handle: DbHandle): string {
  if (handle.driver === "pglite") return "embedded PGlite";
  const url = new URL(handle.connectionString!);
  return `PostgreSQL at ${url.host}${url.pathname}`;
}
