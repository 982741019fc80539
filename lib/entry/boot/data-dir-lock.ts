import fs from "node:fs";
import path from "node:path";

// Two processes on one PGlite data directory corrupt it: the owner creates DATA_DIR/server.pid exclusively (pid, then
// "server" or "cli"); a file whose pid is dead is stale and replaced.
export type LockOwner = "server" | "cli";

export interface DataDirLock {
  file: string;
  /** Removes the file if it is still ours. Safe to call more than once. */
  release(): void;
}

export class DataDirBusyError extends Error {
  constructor(
    readonly holder: { pid: number; owner: LockOwner },
    readonly dataDir: string,
  ) {
    super(
      holder.owner === "server"
        ? `The server (pid ${holder.pid}) is using DATA_DIR ${dataDir}; stop it first, or use DATABASE_URL.`
        : `A CLI command (pid ${holder.pid}) is using DATA_DIR ${dataDir}; wait for it to finish, or use DATABASE_URL.`,
    );
    this.name = "DataDirBusyError";
  }
}

export const LOCK_FILE_NAME = "server.pid";

export function acquireDataDirLock(dataDir: string, owner: LockOwner, pid: number = process.pid): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE_NAME);
  const content = `${pid}\n${owner}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createExclusively(file, content, pid)) return { file, release: () => releaseIfOurs(file, pid) };
    const seen = readText(file);
    const holder = seen === null ? null : parseHolder(seen);
    if (holder && holder.pid !== pid && isAlive(holder.pid)) throw new DataDirBusyError(holder, path.resolve(dataDir));
    // Stale (a dead pid, garbage, our own pid from a previous life): removed only if unchanged, so a racer's fresh lock survives.
    if (seen !== null && readText(file) === seen) fs.rmSync(file, { force: true });
  }
  throw new Error(`Could not take the lock ${file}: other processes keep creating it.`);
}

/** Hard-linking a written temp file fails if the lock exists, and a reader never sees an empty lock file. */
function createExclusively(file: string, content: string, pid: number): boolean {
  const temporary = `${file}.${pid}.${Date.now()}.tmp`;
  fs.writeFileSync(temporary, content, { mode: 0o644 });
  try {
    fs.linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

export function readLockHolder(dataDir: string): { pid: number; owner: LockOwner } | null {
  const text = readText(path.join(dataDir, LOCK_FILE_NAME));
  return text === null ? null : parseHolder(text);
}

function parseHolder(text: string): { pid: number; owner: LockOwner } | null {
  const [pidLine, ownerLine] = text.split("\n");
  const pid = Number(pidLine?.trim());
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return { pid, owner: ownerLine?.trim() === "cli" ? "cli" : "server" };
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user; still alive.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function releaseIfOurs(file: string, pid: number): void {
  if (readText(file)?.split("\n")[0]?.trim() === String(pid)) fs.rmSync(file, { force: true });
}
