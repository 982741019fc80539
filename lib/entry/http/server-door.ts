import type { RequestListener, Server } from "node:http";
import type { Router } from "@/lib/entry/api/router";
import { createHardenedServer, httpSettingsFromEnv } from "./hardened-server";
import { createNodeDoor } from "./node-door";

/**
 * The contract between server/server.mjs (plain Node, no TypeScript) and this process's booted
 * service: the server puts a slot under this key before Next.js loads; instrumentation.ts fills it
 * once the service has booted. Next.js's public instrumentation hook is the only way in: the server
 * never loads a built module itself.
 */
const SLOT = Symbol.for("postwerk.productionServer");

export interface ListenOptions {
  /** Next.js's request handler, for everything the routers do not own. */
  nextHandler: RequestListener;
  hostname?: string;
  port: number;
  /** Send the API and the provider webhooks through Next.js too (for comparing, docs/benchmarks.md). */
  throughNext?: boolean;
}

export interface ServerDoor {
  /** Starts the hardened HTTP server; resolves once it listens. */
  listen(options: ListenOptions): Promise<Server>;
}

interface Slot {
  open(door: ServerDoor): void;
}

export function productionServerWaiting(): boolean {
  return typeof (globalThis as Record<symbol, Slot | undefined>)[SLOT]?.open === "function";
}

export function openServerDoor(routers: readonly Router[]): void {
  const slot = (globalThis as Record<symbol, Slot | undefined>)[SLOT];
  slot?.open({ listen: (options) => listen(routers, options) });
}

function listen(routers: readonly Router[], options: ListenOptions): Promise<Server> {
  const door = createNodeDoor({
    routers: options.throughNext ? [] : routers,
    fallback: options.nextHandler,
    hostname: options.hostname ?? "localhost",
    port: options.port,
  });
  const server = createHardenedServer(door, httpSettingsFromEnv());
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.hostname, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}
