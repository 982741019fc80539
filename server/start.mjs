#!/usr/bin/env node
// `npm start [-- --hostname HOST --port PORT]`: build when the sources are newer than the last build,
// then run the server (server/server.mjs), passing its arguments on.
// Plain Node ESM (no TypeScript, no dependencies) so it runs before anything is compiled.
import "./check-node.mjs"; // first: a clear error on an unsupported Node, before anything else runs
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { nextBuildStale, withBuildLock } from "./build-state.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
const serverScript = path.join(root, "server", "server.mjs");
// Under the build lock: the door test and the artefact test may start at once, each finding the build stale.
const built = await withBuildLock(root, async () => {
  if (!nextBuildStale(root)) return 0;
  console.log("> Sources changed since the last build (or no build yet): running next build");
  return run("next build", [nextBin, "build"]);
});
if (built !== 0) process.exit(built);
// The server reads PORT and the HTTP_* settings from the environment it inherits.
process.exit(await run("the server", [serverScript, ...process.argv.slice(2)]));

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
