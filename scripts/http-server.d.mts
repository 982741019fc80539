// Types of scripts/http-server.mjs (plain JavaScript so it runs before a build) for its TypeScript tests.
import type { RequestListener, Server } from "node:http";

export interface HttpSettings {
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxRequestsPerSocket: number;
}

export interface ClientRefusal {
  status: number;
  code: string;
  message: string;
}

export const HTTP_DEFAULTS: Readonly<HttpSettings>;
export const HTTP_ENV: Readonly<Record<keyof HttpSettings, string>>;
export const CLIENT_ERRORS: Readonly<Record<"timeout" | "headersTooLarge" | "chunkExtensionsTooLarge" | "badRequest", ClientRefusal>>;
export function readHttpSettings(source?: Record<string, string | undefined>): HttpSettings;
export function createHardenedServer(handler: RequestListener, settings?: HttpSettings): Server;
