#!/usr/bin/env node
// `npm start [-- --hostname HOST --port PORT]`: build when the sources are newer than the last build,
// then run the server (server/server.mjs), passing its arguments on.
// Plain Node ESM (no TypeScript, no dependencies) so it runs before anything is compiled.
import "./check-node.mjs"; // first: a clear error on an unsupported Node, before anything else runs
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
const serverScript = path.join(root, "server", "server.mjs");
// Everything `next build` compiles. Directory mtimes are checked too, so deleting a file counts.
const SOURCES = [
  "app",
  "lib",
  "components",
  "db",
  "internals",
  "instrumentation.ts",
  "proxy.ts",
  "middleware.ts",
  "next.config.ts",
  "package.json",
  "tsconfig.json",
  "postcss.config.mjs",
];
const SKIP = new Set(["node_modules", ".next", ".data"]);

if (needsBuild()) {
  console.log("> Sources changed since the last build (or no build yet): running next build");
  const code = await run("next build", [nextBin, "build"]);
  if (code !== 0) process.exit(code);
}
// The server reads PORT and the HTTP_* settings from the environment it inherits.
process.exit(await run("the server", [serverScript, ...process.argv.slice(2)]));

function needsBuild() {
  let builtAt;
  try {
    builtAt = fs.statSync(path.join(root, ".next", "BUILD_ID")).mtimeMs;
  } catch {
    return true;
  }
  return SOURCES.some((entry) => newerThan(path.join(root, entry), builtAt));
}

/** Stops at the first newer entry; test files do not change the build. */
function newerThan(file, time) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return false;
  }
  if (stat.mtimeMs > time) return true;
  if (!stat.isDirectory()) return false;
  for (const entry of fs.readdirSync(file, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || /\.test\.[cm]?[jt]sx?$/.test(entry.name)) continue;
    if (newerThan(path.join(file, entry.name), time)) return true;
  }
  return false;
}

/** Runs a Node script with inherited stdio, forwarding termination signals; resolves its exit code. */
function run(what, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: "inherit" });
    const signals = ["SIGINT", "SIGTERM", "SIGHUP"];
    const forward = (signal) => child.kill(signal);
    for (const signal of signals) process.on(signal, forward);
    child.on("error", (error) => {
      console.error(`> Cannot run ${what}: ${error.message}`);
      resolve(1);
    });
    child.on("exit", (code, signal) => {
      for (const s of signals) process.off(s, forward);
      // A child ended by a signal exits like the shell would report it: 128 + signal number.
      resolve(code ?? 128 + (os.constants.signals[signal] ?? 0));
    });
  });
}
