import "server-only";
import { count } from "drizzle-orm";
import { integer, pgSchema } from "drizzle-orm/pg-core";
import { getDbHandle, type DbHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { env } from "@/lib/foundation/env";
import { AppError } from "@/lib/foundation/errors";
import { backupDatabase, restoreDatabase, type BackupResult, type TransactionIdsReport } from "../backup";
import { emit, flag, leadingArgument, parseFlags, type CliCommand } from "../io";

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
  // "none": these open the database themselves, the embedded one under DATA_DIR's lock (docs/backups.md).
  "db backup": {
    usage: "db backup FILE [--json]",
    summary:
      "Back up the database to FILE (embedded: PGlite's dump, server stopped; PostgreSQL: pg_dump custom format).",
    database: "none",
    async run(args, context) {
      const { value: file } = leadingArgument(args, "FILE", {});
      const result = await backupDatabase(env(), file);
      emit(context, result, [`Backed up ${describeResult(result, "to")}.`]);
    },
  },
  "db restore": {
    usage: "db restore FILE [--force] [--json]",
    summary:
      "Restore a backup from FILE (embedded: --force to replace an existing database; PostgreSQL: pg_restore --clean).",
    database: "none",
    async run(args, context) {
      const { value: file, flags } = leadingArgument(args, "FILE", { force: { type: "boolean" } });
      const result = await restoreDatabase(env(), file, { force: flag(flags, "force") });
      emit(context, result, [
        `Restored ${describeResult(result, "from")}.`,
        result.pendingMigrations > 0
          ? `The backup is ${result.pendingMigrations} migration(s) behind; the server applies them at boot (or: npm run cli -- db migrate).`
          : "The restored database opens and is up to date with this version's migrations.",
        ...transactionIdLines(result.transactionIds),
      ]);
      // The data is back either way; the exit code says the service would not yet deliver webhooks.
      if (result.transactionIds?.remedy)
        throw new AppError("CONFLICT", `Restored, but ${result.transactionIds.remedy}.`);
    },
  },
};

function transactionIdLines(report: TransactionIdsReport | undefined): string[] {
  if (!report || report.spent === 0) return [];
  return [
    `This PostgreSQL cluster's transaction ids were ${report.spent} behind the restored rows' (up to ${report.stored}; ` +
      `its next was ${report.next}): spent ${report.spent} so webhooks and the event feed carry on.`,
  ];
}

function describeResult(result: BackupResult, preposition: "to" | "from"): string {
  const where = result.driver === "pglite" ? "the embedded database" : "the PostgreSQL database";
  const size =
    result.bytes >= 1024 * 1024
      ? `${(result.bytes / 1024 / 1024).toFixed(1)} MB`
      : `${Math.ceil(result.bytes / 1024)} KB`;
  return `${where} ${preposition} ${result.file} (${size}) in ${(result.durationMs / 1000).toFixed(1)} s`;
}

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
