/** Shared by the bench scripts: build, start the built app on a database, stop it. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";

export const BENCH_KEY_USERNAME = "key_BENCH00000000000";
export const BENCH_KEY = `${BENCH_KEY_USERNAME}:bench-secret-bench-secret-bench-secret`;
export const BENCH_AUTH = `Basic ${Buffer.from(BENCH_KEY).toString("base64")}`;

/**
 * The benches' floor is Next.js's own: the JSON 404 of an unknown /api/v1 path through its routing.
 * The production server's door answers /api/v1 with our router (lib/entry/http/node-door.ts) unless a
 * request carries this header, so the floor requests carry it; the router's own 404 is printed beside.
 */
export const THROUGH_NEXT = { "x-through-next": "1" };

export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export function build(skip: boolean): void {
  if (skip) return console.log("build: skipped");
  const started = performance.now();
  const result = spawnSync("node", ["node_modules/next/dist/bin/next", "build"], {
    stdio: "ignore",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new Error("next build failed");
  console.log(`build: ${seconds(performance.now() - started)}`);
}

export interface RunningServer {
  base: string;
  /** The server's process id (bench:events reads its CPU time from /proc). */
  pid: number;
  coldStartMs: number;
  /** The environment it was started with (to start it again). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startServer(
  port: number,
  env: Record<string, string>,
  extraArgs: string[] = [],
): Promise<RunningServer> {
  const base = `http://127.0.0.1:${port}/api/v1`;
  const started = performance.now();
  // The server the product runs (npm start): Next.js behind server/server.mjs's hardened HTTP server.
  // BENCH_NODE_ARGS: flags for the server's Node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" (not allowed in NODE_OPTIONS).
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const child: ChildProcess = spawn("node", [...nodeArgs, "server/server.mjs", "--port", String(port), ...extraArgs], {
    env: {
      ...process.env,
      PORT: String(port),
      SEED_DEMO: "true",
      SEED_API_KEY: BENCH_KEY,
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
      RATE_LIMIT_PER_SECOND: "0",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${base}/email_messages?limit=1`, { headers: { authorization: BENCH_AUTH } });
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const coldStartMs = performance.now() - started;
  return {
    base,
    pid: child.pid!,
    coldStartMs,
    env,
    stop: async () => {
      child.kill("SIGTERM");
      if (child.exitCode === null) await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

/** A throwaway database on the PostgreSQL server, or null when the server cannot be reached. */
export async function scratchPostgres(
  serverUrl: string,
): Promise<{ name: string; url: string; drop(): Promise<void> } | null> {
  const name = `bench_${Date.now()}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } catch (error) {
    console.log(`postgres: skipped (${String(error)})`);
    await admin.end();
    return null;
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

export function tempDir(): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-bench-"));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

export function sendBody(i: number) {
  return {
    from: "Bench <bench@example.com>",
    to: `Reader ${i} <reader${i}@example.org>`,
    subject: `Bench ${i}`,
    bodyHtml: `<p>Hello reader ${i}, <a href="https://example.com/${i}">open</a>.</p>`,
  };
}
