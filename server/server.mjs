#!/usr/bin/env node
// The production server: Next.js behind our own node:http server, in place of `next start`, whose
// CLI has no hook for the timeouts and the clientError handler of server/http-server.mjs.
// Usage: node server/server.mjs [--hostname HOST] [--port PORT] [--webhooks-through-next] [--api-through-next] (after `next build`; PORT env and
// all interfaces by default, like `next start`). instrumentation.ts still boots the service
// (database, migrations, workers) inside this process while Next.js prepares.
// Plain Node ESM with no dependencies beyond next, so it runs before anything is compiled.
import "./check-node.mjs"; // first: a clear error on an unsupported Node
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createDirectRoutes } from "./direct-routes.mjs";
import { createHardenedServer, readHttpSettings } from "./http-server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const { values: args } = parseArgs({ options: { hostname: { type: "string" }, port: { type: "string" }, "webhooks-through-next": { type: "boolean", default: false }, "api-through-next": { type: "boolean", default: false } } });
const port = Number(args.port ?? process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`PORT: must be a port number (1–65535), got "${args.port ?? process.env.PORT}"`);
// Like `next start`: a production server unless told otherwise, and the port lib/foundation/env.ts reads.
process.env.NODE_ENV ||= "production";
process.env.PORT = String(port);

let settings;
try {
  settings = readHttpSettings(process.env);
} catch (error) {
  fail(error.message);
}

const { default: next } = await import("next");
const app = next({ dev: false, dir: root, hostname: args.hostname ?? "localhost", port });
await app.prepare();
const handle = app.getRequestHandler();
// Provider webhooks and the public API skip Next.js's routing (server/direct-routes.mjs); everything
// else is Next.js's. --webhooks-through-next turns that off for both, --api-through-next for the API
// only (for comparing, docs/benchmarks.md).
const direct = args["webhooks-through-next"] ? () => false : createDirectRoutes(root, { hostname: args.hostname ?? "localhost", port, api: !args["api-through-next"] });
const server = createHardenedServer((req, res) => direct(req, res, handle) || handle(req, res), settings);

server.on("error", (error) => fail(`The HTTP server cannot listen on ${args.hostname ?? "*"}:${port}: ${error.message}`));
server.listen(port, args.hostname, () => {
  const shown = args.hostname && args.hostname !== "0.0.0.0" && args.hostname !== "::" ? args.hostname : "localhost";
  console.log(`> Ready on http://${shown}:${port}`);
});

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
