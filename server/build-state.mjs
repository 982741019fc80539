// Whether the build is older than the sources, and one build at a time: server/start.mjs (npm start, the door
// test, Playwright) and server/artefact.test.ts may each find the build stale at once, and two `next build`
// runs in one folder break each other. Plain Node ESM with no dependencies, so it runs before anything is built.
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

// Everything `next build` and scripts/build-processes.mjs compile. Directory mtimes count, so deleting a file does.
const SOURCES = [
  "app",
  "lib",
  "components",
  "db",
  "internals",
  "instrumentation.ts",
  "proxy.ts",
  "middleware.ts",
  "next.config.mjs",
  "package.json",
  "tsconfig.json",
  "postcss.config.mjs",
];
const SKIP = new Set(["node_modules", ".next", ".data"]);

/** True when `next build` has not run since the sources last changed. */
export function nextBuildStale(root) {
  return sourcesNewerThan(root, path.join(root, ".next", "BUILD_ID"));
}

/** True when the process bundles (dist/, scripts/build-processes.mjs) are missing or older than the sources. */
export function processesStale(root) {
  const bundle = path.join(root, "dist", "cli.mjs");
  return sourcesNewerThan(root, bundle) || newerThan(path.join(root, "scripts", "build-processes.mjs"), mtime(bundle));
}

/** Runs `work` while holding the repository's build lock (a file naming its holder's pid; a dead holder's is taken over). */
export async function withBuildLock(root, work) {
  const lock = path.join(root, ".build.lock");
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: "wx" });
      break;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      if (!holderAlive(lock)) fs.rmSync(lock, { force: true });
      else await sleep(500);
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

function holderAlive(lock) {
  const pid = Number(fs.readFileSync(lock, "utf8").trim());
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

function sourcesNewerThan(root, built) {
  const builtAt = mtime(built);
  return builtAt === undefined || SOURCES.some((entry) => newerThan(path.join(root, entry), builtAt));
}

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Stops at the first newer entry; test files do not change the build. */
function newerThan(file, time) {
  if (time === undefined) return true;
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
