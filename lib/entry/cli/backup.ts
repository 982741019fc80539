import "server-only";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { openPglite, openPostgres, type DbHandle } from "@/db/client";
import { pendingMigrations } from "@/db/migrate";
import { dataDirectory, describeBehind, passStoredTransactionIds } from "@/db/transaction-ids";
import { AppError } from "@/lib/foundation/errors";
import type { Env } from "@/lib/foundation/env";
import { acquireDataDirLock } from "@/lib/entry/boot/data-dir-lock";
import { shellQuote } from "./io";

export type BackupSettings = Pick<Env, "DATABASE_URL" | "DATA_DIR">;

export interface BackupResult {
  driver: "pglite" | "postgres";
  file: string;
  bytes: number;
  durationMs: number;
}

export interface RestoreResult extends BackupResult {
  /** Committed migrations newer than the restored database's last (the server applies them at boot). */
  pendingMigrations: number;
  /** PostgreSQL: the cluster's transaction ids against the restored rows' (db/transaction-ids.ts). */
  transactionIds?: TransactionIdsReport;
}

export interface TransactionIdsReport {
  /** The highest id the restored rows hold, and the id the cluster's next transaction got before any was spent. */
  stored: number;
  next: number;
  /** Ids spent to pass the stored ones (0 when the cluster was already past them). */
  spent: number;
  /** Set when too many are missing to spend: what to do, with the numbers (the command then fails). */
  remedy?: string;
}

/** Embedded: PGlite's own dump (a gzipped tarball of the data directory), taken under DATA_DIR's lock. PostgreSQL: pg_dump. */
export async function backupDatabase(settings: BackupSettings, file: string): Promise<BackupResult> {
  const started = Date.now();
  const target = path.resolve(file);
  if (settings.DATABASE_URL) {
    await runTool("pg_dump", ["--format=custom", `--file=${target}`, `--dbname=${settings.DATABASE_URL}`]);
  } else {
    await withDataDir(settings.DATA_DIR, async (pgliteDir) => {
      if (!hasFiles(pgliteDir)) throw new AppError("NOT_FOUND", `There is no embedded database in ${pgliteDir}.`);
      const handle = await openPglite(pgliteDir);
      try {
        const dump = await handle.pglite!.dumpDataDir("gzip");
        // Written beside the target and renamed, so a failed backup never leaves half a file under the name.
        const partial = `${target}.partial`;
        fs.writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
        fs.renameSync(partial, target);
      } finally {
        await handle.close();
      }
    });
  }
  return { driver: settings.DATABASE_URL ? "postgres" : "pglite", file: target, ...measure(target, started) };
}

/** Refuses to replace an embedded database unless `force`; then opens the result and counts its pending migrations. */
export async function restoreDatabase(
  settings: BackupSettings,
  file: string,
  options: { force?: boolean } = {},
): Promise<RestoreResult> {
  const started = Date.now();
  const source = path.resolve(file);
  if (!fs.existsSync(source)) throw new AppError("NOT_FOUND", `No backup file at ${source}.`);
  let pending: number;
  let transactionIds: TransactionIdsReport | undefined;
  if (settings.DATABASE_URL) {
    await runTool("pg_restore", [
      "--clean",
      "--if-exists",
      "--no-owner",
      "--exit-on-error",
      `--dbname=${settings.DATABASE_URL}`,
      source,
    ]);
    ({ pending, transactionIds } = await verifyPostgres(await openPostgres(settings.DATABASE_URL, 1)));
  } else {
    pending = await withDataDir(settings.DATA_DIR, async (pgliteDir) => {
      if (hasFiles(pgliteDir)) {
        if (!options.force)
          throw new AppError(
            "CONFLICT",
            `${pgliteDir} already holds a database; pass --force to replace it (back it up first).`,
          );
        fs.rmSync(pgliteDir, { recursive: true, force: true });
      }
      const dump = new Blob([new Uint8Array(fs.readFileSync(source))]);
      // loadDataDir unpacks the dump into the directory; closing flushes it to disk.
      await (await openPglite(pgliteDir, dump)).close();
      return verify(await openPglite(pgliteDir));
    });
  }
  return {
    driver: settings.DATABASE_URL ? "postgres" : "pglite",
    file: source,
    ...measure(source, started),
    pendingMigrations: pending,
    ...(transactionIds ? { transactionIds } : {}),
  };
}

/** The readiness check's own question: the restored database opens and its migration journal is readable. */
async function verify(handle: DbHandle): Promise<number> {
  try {
    return (await pendingMigrations(handle)).length;
  } finally {
    await handle.close();
  }
}

/**
 * Also moves the cluster's transaction ids past the restored rows': a new cluster counts from the
 * start, and until it passes them webhooks and the event feed stand still. Few missing are spent
 * here; for many the report says how to move the epoch. Another database of the same cluster, or
 * the embedded restore (the whole data directory), already shares the counter the rows came from.
 */
async function verifyPostgres(handle: DbHandle): Promise<{ pending: number; transactionIds: TransactionIdsReport }> {
  try {
    const pending = (await pendingMigrations(handle)).length;
    const passed = await passStoredTransactionIds(handle.db);
    const { stored, next } = passed.horizon;
    const spent = passed.outcome === "advanced" ? passed.spent : 0;
    const remedy =
      passed.outcome === "behind" ? describeBehind(passed.horizon, await dataDirectory(handle.db)) : undefined;
    return { pending, transactionIds: { stored, next, spent, ...(remedy ? { remedy } : {}) } };
  } finally {
    await handle.close();
  }
}

async function withDataDir<T>(dataDir: string, work: (pgliteDir: string) => Promise<T>): Promise<T> {
  // The same lock the server takes: a running server makes this throw "stop it first".
  const lock = acquireDataDirLock(dataDir, "cli");
  try {
    return await work(path.join(path.resolve(dataDir), "pglite"));
  } finally {
    lock.release();
  }
}

function hasFiles(dir: string): boolean {
  try {
    return fs.readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}

function measure(file: string, started: number): { bytes: number; durationMs: number } {
  return { bytes: fs.statSync(file).size, durationMs: Date.now() - started };
}

/** The command a person would type, the password hidden: for the error when a tool is missing or fails. */
export function handCommand(tool: string, args: string[]): string {
  return [tool, ...args.map((arg) => arg.replace(/(\/\/[^:/@]+:)[^@]*@/, "$1***@"))].map(shellQuote).join(" ");
}

function onPath(tool: string): boolean {
  return (process.env.PATH ?? "").split(path.delimiter).some((dir) => {
    try {
      fs.accessSync(path.join(dir, tool), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

async function runTool(tool: string, args: string[]): Promise<void> {
  if (!onPath(tool))
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      `${tool} is not on PATH; install the PostgreSQL client tools (the server's major version or newer) or run by hand: ${handCommand(tool, args)}`,
    );
  const stderr: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ["ignore", "ignore", "pipe"] });
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
    child.on("error", reject);
    child.on("close", resolve);
  });
  if (code !== 0)
    throw new AppError("INTERNAL_ERROR", `${tool} failed (exit ${code}): ${stderr.join("").trim() || "no output"}`);
}
