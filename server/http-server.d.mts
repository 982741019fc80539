// Types of server/http-server.mjs (plain JavaScript so it runs before a build) for its TypeScript tests.
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
export const CLIENT_ERRORS: Readonly<Record<"timeout" | "headersTooLarge" | "chunkExtensionsTooLarge" | "badRequest" | "undecodablePath", ClientRefusal>>;
export function readHttpSettings(source?: Record<string, string | undefined>): HttpSettings;
/** A refusal's log line: its request id (also sent as X-Request-Id), status, code and the client's address. */
export interface RefusalLogFields {
  requestId: string;
  status: number;
  code: string;
  remoteAddress: string | undefined;
  /** An undecodable path's refusal: the path. */
  path?: string;
}

export function createHardenedServer(handler: RequestListener, settings?: HttpSettings, options?: { log?: (fields: RefusalLogFields) => void }): Server;
