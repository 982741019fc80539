import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirBusyError, isAlive, readLockHolder } from "./data-dir-lock";

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-lock-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A pid that certainly belonged to a process and no longer does. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.on("exit", resolve));
  return child.pid!;
}

describe("data directory lock", () => {
  it("writes DATA_DIR/server.pid exclusively (creating DATA_DIR) and removes it on release", () => {
    const dataDir = path.join(tempDir(), "nested", "data");
    const lock = acquireDataDirLock(dataDir, "server");
    expect(lock.file).toBe(path.join(dataDir, "server.pid"));
    expect(fs.readFileSync(lock.file, "utf8")).toBe(`${process.pid}\nserver\n`);
    expect(readLockHolder(dataDir)).toEqual({ pid: process.pid, owner: "server" });
    expect(fs.readdirSync(dataDir)).toEqual(["server.pid"]); // no temporary file left behind
    lock.release();
    lock.release();
    expect(fs.existsSync(lock.file)).toBe(false);
  });

  it("refuses while a live process holds it, naming the pid and the way out", () => {
    const dataDir = tempDir();
    const otherPid = process.ppid; // alive for as long as this test runs, and not us
    fs.writeFileSync(path.join(dataDir, "server.pid"), `${otherPid}\nserver\n`);
    let error: unknown;
    try {
      acquireDataDirLock(dataDir, "cli");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DataDirBusyError);
    expect((error as Error).message).toBe(
      `The server (pid ${otherPid}) is using DATA_DIR ${dataDir}; stop it first, or use DATABASE_URL.`,
    );
    // The holder's file is untouched.
    expect(fs.readFileSync(path.join(dataDir, "server.pid"), "utf8")).toBe(`${otherPid}\nserver\n`);
  });

  it("tells the server when a CLI command holds it", () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, "server.pid"), `${process.ppid}\ncli\n`);
    expect(() => acquireDataDirLock(dataDir, "server")).toThrow(
      `A CLI command (pid ${process.ppid}) is using DATA_DIR`,
    );
  });

  it("replaces a stale file whose pid is not alive, and a garbage one", async () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, "server.pid");
    const pid = await deadPid();
    expect(isAlive(pid)).toBe(false);
    fs.writeFileSync(file, `${pid}\nserver\n`);
    const lock = acquireDataDirLock(dataDir, "server");
    expect(fs.readFileSync(file, "utf8")).toBe(`${process.pid}\nserver\n`);
    lock.release();

    fs.writeFileSync(file, "not a pid");
    acquireDataDirLock(dataDir, "cli").release();
    expect(fs.existsSync(file)).toBe(false);
  });

  it("treats its own pid as stale (a restarted container's pid 1) and releases only its own file", () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, "server.pid");
    fs.writeFileSync(file, `${process.pid}\nserver\n`);
    const lock = acquireDataDirLock(dataDir, "server");
    // Someone else took over meanwhile (the operator deleted the file, another process started).
    fs.writeFileSync(file, `${process.ppid}\nserver\n`);
    lock.release();
    expect(fs.readFileSync(file, "utf8")).toBe(`${process.ppid}\nserver\n`);
  });
});
