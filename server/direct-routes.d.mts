import type { IncomingMessage, ServerResponse } from "node:http";

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;
export interface DirectRouteOptions {
  /** false: the public API goes through Next.js (server/server.mjs --api-through-next). */
  api?: boolean;
  /** Next.js's hostname and port, for the request URL it would build (default: localhost and the socket's port). */
  hostname?: string;
  port?: number;
  /** Whether the service has booted (default: lib/entry/boot/boot.ts's boot on globalThis has finished); until then Next.js answers. */
  booted?: () => boolean;
}
/** True when it took the request (a provider-event POST, or an API path of the build's route table); `fallback` (Next.js) serves it if the built module cannot be used. */
export function createDirectRoutes(root: string, options?: DirectRouteOptions): (req: IncomingMessage, res: ServerResponse, fallback: Handler) => boolean;
