import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

/** A standalone `npm run worker` process (lib/entry/worker/worker-main.ts), for tests and benchmarks. */
export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves once the process logged "workers started"; rejects if it exits first. */
  started: Promise<void>;
  /** Its JSON log lines so far. */
  lines(): Array<Record<string, unknown>>;
  stderr(): string;
  /** SIGTERM (graceful) and the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Spawns the worker as `npm run worker` does (tsx's loader, the react-server condition), but as ONE
 * process: Node with tsx registered by --import, not the tsx CLI, which runs the script in a child of
 * its own. A SIGKILL reaches only the process it is sent to, so through the CLI it would kill the
 * wrapper and leave the worker running, orphaned (the crash tests would kill nothing).
 */
export function startWorkerProcess(env: Record<string, string | undefined>, root = process.cwd()): WorkerProcess {
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", path.join("lib", "entry", "worker", "worker-main.ts")],
    {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: "info", ...env },
      stdio: "pipe",
    },
  );
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const started = new Promise<void>((resolve, reject) => {
    let ready = false;
    child.stdout!.on("data", (chunk) => {
      const from = Math.max(0, stdout.length - 20);
      stdout += chunk;
      // Only the new text (and the end of the old, for a line split between chunks): a benchmark's
      // worker logs thousands of lines, and searching all of them per chunk costs quadratic time.
      if (!ready && stdout.includes('"workers started"', from)) {
        ready = true;
        resolve();
      }
    });
    child.once("exit", (code, signal) => reject(new Error(`worker exited with ${code ?? signal}: ${stderr}`)));
  });
  started.catch(() => {});
  return {
    child,
    started,
    lines: () =>
      stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exitOf(child);
    },
  };
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}
