// Files of the next package that the artefact needs and Next.js's standalone trace leaves out. The trace is made
// for Next.js's own standalone server.js, which hands Next.js its configuration through a private variable and so
// never loads next.config. Our server (server/server.mjs) uses the public programmatic server, `next({ dir })`,
// which loads next.config.mjs and, before it, installs a require hook that resolves each of next's compiled
// webpack modules and @babel/runtime's package.json: without these the server stops at start with "Cannot find
// module 'next/dist/compiled/webpack/webpack-lib'". scripts/assemble-artefact.mjs copies them (2.6 MB) from
// node_modules/next; internals/next-standalone.canary.test.ts and server/artefact.test.ts check the list holds.
// Plain ESM without dependencies: the assembler runs before anything is compiled.

/** The reach, as internals/canary.ts describes one. */
export const NEXT_STANDALONE = {
  dependency: "next",
  writtenFor: "16.4.5",
  file: "internals/next-standalone.mjs",
  recheck:
    "which modules next/dist/server/config.js's loadConfig requires before it reads next.config (loadWebpackHook in " +
    "next/dist/server/config-utils.js) and whether the standalone trace now carries them; then run server/artefact.test.ts",
};

/** Paths inside node_modules/next, a folder or a file each. */
export const NEXT_FILES_THE_TRACE_MISSES = ["dist/compiled/webpack", "dist/compiled/@babel/runtime/package.json"];
