#!/usr/bin/env node
// `node scripts/assemble-artefact.mjs [--build-if-stale] OUT_DIR` after `npm run build`: puts together the production artefact,
// a folder that runs with Node alone (no repository, no npm install, no tsx): what the Dockerfile's runtime
// stage copies and what server/artefact.test.ts starts. Layout (docs/self-hosting.md#the-artefact):
//   server/server.mjs        the HTTP server (node server/server.mjs), with server/check-node.mjs
//   dist/*.mjs               worker.mjs, smtp.mjs, inbound.mjs, cli.mjs (scripts/build-processes.mjs)
//   .next/, node_modules/    Next.js's standalone output: the built app and only the packages it uses
//   .next/static/, public/   the browser's files, which the standalone output leaves out
//   db/migrations/           read at boot and by `cli.mjs db migrate`, from the working directory
//   next.config.mjs, package.json
// Every process runs with the artefact as its working directory. --build-if-stale first runs the parts of
// `npm run build` older than the sources, under the build lock (server/build-state.mjs).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { NEXT_FILES_THE_TRACE_MISSES } from "../internals/next-standalone.mjs";
import { nextBuildStale, processesStale, withBuildLock } from "../server/build-state.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The artefact's parts: where each comes from in the repository after the build, and where it goes. */
export const ARTEFACT_PARTS = [
  { from: ".next/standalone", to: "." },
  { from: ".next/static", to: ".next/static" },
  { from: "public", to: "public", optional: true },
  { from: "server/server.mjs", to: "server/server.mjs" },
  { from: "server/check-node.mjs", to: "server/check-node.mjs" },
  { from: "dist", to: "dist" },
  { from: "db/migrations", to: "db/migrations" },
  { from: "next.config.mjs", to: "next.config.mjs" },
  { from: "package.json", to: "package.json" },
];

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    options: { "build-if-stale": { type: "boolean", default: false } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) {
    console.error("Usage: node scripts/assemble-artefact.mjs [--build-if-stale] OUT_DIR (after npm run build)");
    process.exit(2);
  }
  const out = positionals[0];
  try {
    if (values["build-if-stale"]) await withBuildLock(root, buildIfStale);
    assembleArtefact(path.resolve(out));
    console.log(`> Assembled the artefact in ${path.resolve(out)}`);
  } catch (error) {
    console.error(`Cannot assemble the artefact: ${error.message}`);
    process.exit(1);
  }
}

/** Copies the built parts into `out`, which must be missing or empty (nothing stale may ride along). */
export function assembleArtefact(out) {
  const missing = ARTEFACT_PARTS.filter((part) => !part.optional && !fs.existsSync(path.join(root, part.from)));
  if (missing.length > 0)
    throw new Error(`${missing.map((part) => part.from).join(", ")} missing: run npm run build first`);
  if (fs.existsSync(out) && fs.readdirSync(out).length > 0) throw new Error(`${out} is not empty`);
  fs.mkdirSync(out, { recursive: true });
  for (const part of ARTEFACT_PARTS) {
    const from = path.join(root, part.from);
    if (!fs.existsSync(from)) continue;
    fs.cpSync(from, path.join(out, part.to), { recursive: true, filter: (source) => !source.endsWith(".test.ts") });
  }
  // Next.js's own standalone entry takes its configuration through a private variable; ours loads next.config.mjs,
  // which needs a few files of the next package that the standalone trace leaves out (internals/next-standalone.mjs).
  fs.rmSync(path.join(out, "server.js"), { force: true });
  for (const file of NEXT_FILES_THE_TRACE_MISSES)
    fs.cpSync(path.join(root, "node_modules", "next", file), path.join(out, "node_modules", "next", file), {
      recursive: true,
    });
}

/** `npm run build`'s two steps, each only when its output is older than the sources. */
function buildIfStale() {
  if (nextBuildStale(root))
    runNode("next build", [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"]);
  if (processesStale(root)) runNode("the process bundles", [path.join(root, "scripts", "build-processes.mjs")]);
}

function runNode(what, args) {
  console.log(`> Building ${what} (older than the sources, or missing)`);
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`${what} failed (exit ${result.status ?? result.signal})`);
}
