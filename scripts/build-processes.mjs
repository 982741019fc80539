#!/usr/bin/env node
// `node scripts/build-processes.mjs` (the second half of `npm run build`): bundles the processes that run
// beside the server (worker, SMTP submission, bounce listener, CLI) into plain ESM under dist/, so
// the artefact runs them with Node alone: no tsx, no TypeScript, no repository (docs/self-hosting.md#the-artefact).
// Everything is bundled but the packages that read files of their own at run time (EXTERNAL below), which
// they load from the artefact's node_modules: the standalone build traced them because the server imports them.
import "../server/check-node.mjs"; // first: a clear error on an unsupported Node
import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const PROCESSES_DIR = path.join(root, "dist");
/** The artefact's processes: name → entry point (each has its npm script in development). */
export const PROCESS_ENTRIES = {
  worker: "lib/entry/worker/worker-main.ts",
  smtp: "lib/entry/submission/submission-main.ts",
  inbound: "lib/entry/inbound/inbound-main.ts",
  cli: "lib/entry/cli/main.ts",
};
/** Threads the server starts (server/server.mjs): the embedded database's own thread. Not a process of its own. */
export const THREAD_ENTRIES = {
  "pglite-thread": "db/pglite-thread/thread-main.ts",
};

/**
 * Not bundled: PGlite loads its WASM, data and extension files next to its own modules. The rest of
 * next.config.mjs's serverExternalPackages are plain JavaScript and bundled: the standalone trace holds the
 * files the server's `require` loads, while an ESM bundle's `import` may pick another entry
 * (nodemailer's dist/esm, which the trace leaves out). server/artefact.test.ts loads each external.
 */
export const EXTERNAL = ["@electric-sql/pglite"];

// CommonJS dependencies inside an ESM bundle still call require() and read __dirname.
const banner = [
  'import { createRequire as __postwerkCreateRequire } from "node:module";',
  'import { fileURLToPath as __postwerkFileUrlToPath } from "node:url";',
  "const require = __postwerkCreateRequire(import.meta.url);",
  "const __filename = __postwerkFileUrlToPath(import.meta.url);",
  'const __dirname = __postwerkFileUrlToPath(new URL(".", import.meta.url));',
].join("\n");

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const externals = await buildProcesses();
  const took = ((performance.now() - started) / 1000).toFixed(1);
  const bundled = Object.keys({ ...PROCESS_ENTRIES, ...THREAD_ENTRIES });
  console.log(`> Bundled ${bundled.join(", ")} into dist/ in ${took} s`);
  console.log(`> External packages they load from the artefact: ${externals.join(", ")}`);
}

/** Bundles every process; resolves the external packages the bundles import (written to dist/externals.json). */
export async function buildProcesses() {
  fs.rmSync(PROCESSES_DIR, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { ...PROCESS_ENTRIES, ...THREAD_ENTRIES },
    outdir: PROCESSES_DIR,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    // Shared code once, in chunks beside the entries: every chunk is one folder below the root, in the repository
    // and in the artefact, so server/check-node.mjs finds "../package.json" from any of them.
    splitting: true,
    chunkNames: "chunk-[hash]",
    platform: "node",
    format: "esm",
    target: "node22",
    // As the npm scripts run them (tsx --conditions=react-server): server-only resolves to its empty module.
    conditions: ["react-server"],
    tsconfig: path.join(root, "tsconfig.json"), // the @/ alias
    external: EXTERNAL,
    banner: { js: banner },
    metafile: true,
    logLevel: "warning",
  });
  const imported = externalPackages(result.metafile);
  const optional = imported.filter((name) => !EXTERNAL.includes(name));
  // A require() in a try/catch that esbuild could not resolve stays in the bundle as is: pg's pg-native, which
  // it falls back from when missing. Anything else unresolved fails the bundling itself.
  if (optional.length > 0)
    console.log(`> Optional packages tried at run time and not installed: ${optional.join(", ")}`);
  const externals = imported.filter((name) => EXTERNAL.includes(name));
  fs.writeFileSync(path.join(PROCESSES_DIR, "externals.json"), `${JSON.stringify(externals, null, 2)}\n`);
  return externals;
}

/** The package names the bundles import at run time (Node's built-ins aside). */
function externalPackages(metafile) {
  const names = new Set();
  for (const output of Object.values(metafile.outputs)) {
    for (const { path: specifier, external } of output.imports) {
      if (!external || specifier.startsWith("node:") || builtinModules.includes(specifier)) continue;
      const parts = specifier.split("/");
      names.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]);
    }
  }
  return [...names].sort();
}
