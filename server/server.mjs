#!/usr/bin/env node
// The production server: `node server/server.mjs [--hostname HOST] [--port PORT] [--through-next]`
// after `next build` (PORT env and all interfaces by default, like `next start`). Next.js prepares and
// runs instrumentation.ts, which boots the service and hands back the server's door
// (lib/entry/http/server-door.ts): the hardened HTTP server, with the API's route table in front of
// Next.js. Plain Node ESM with no dependencies beyond next, so it runs before anything is compiled.
import "./check-node.mjs"; // first: a clear error on an unsupported Node
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const options = {
  hostname: { type: "string" },
  port: { type: "string" },
  "through-next": { type: "boolean", default: false },
};
const { values: args } = parseArgs({ options });
const port = Number(args.port ?? process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 1 || port > 65535)
  fail(`PORT: must be a port number (1–65535), got "${args.port ?? process.env.PORT}"`);
// Like `next start`: a production server unless told otherwise, and the port lib/foundation/env.ts reads.
process.env.NODE_ENV ||= "production";
process.env.PORT = String(port);

// The embedded database runs on a thread of its own, off the thread that answers requests
// (docs/architecture.md#the-embedded-database-on-its-own-thread). Started here, in plain Node: db/client.ts asks
// for it only in embedded mode, and opens PGlite in-process where no starter is left (next dev, tests, the CLI).
const databaseThread = path.join(root, "dist", "pglite-thread.mjs");
if (fs.existsSync(databaseThread))
  globalThis[Symbol.for("postwerk.pgliteThread")] = {
    start: (workerData) => new Worker(databaseThread, { workerData, name: "pglite" }),
  };

const door = Promise.withResolvers();
globalThis[Symbol.for("postwerk.productionServer")] = { open: door.resolve };

const { default: next } = await import("next");
const app = next({ dev: false, dir: root, hostname: args.hostname ?? "localhost", port });
await app.prepare();
let server;
try {
  server = await (
    await door.promise
  ).listen({ nextHandler: app.getRequestHandler(), hostname: args.hostname, port, throughNext: args["through-next"] });
} catch (error) {
  fail(`The HTTP server cannot listen on ${args.hostname ?? "*"}:${port}: ${error.message}`);
}
const shown = args.hostname && args.hostname !== "0.0.0.0" && args.hostname !== "::" ? args.hostname : "localhost";
console.log(`> Ready on http://${shown}:${port}`);

// Stop taking connections on a termination signal. lib/entry/boot/boot.ts has its own handler that
// stops the workers, closes the database and exits; exit here only when nothing else listens.
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => {
    server.close();
    server.closeIdleConnections();
    if (process.listenerCount(signal) === 1) process.exit(128 + os.constants.signals[signal]);
  });
}

function fail(message) {
  console.error(`\nThe server cannot start: ${message}\n`);
  process.exit(1);
}
