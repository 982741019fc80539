import type { Server } from "node:http";
import { afterEach } from "vitest";
import type { HttpSettings } from "./hardened-server";

/**
 * Timeouts shrunk so each case takes well under two seconds. Tests assert that a timeout fired, never
 * how fast: one that never fires fails at Vitest's own limit (30 s), which Node's defaults exceed.
 */
export const FAST: HttpSettings = {
  headersTimeoutMs: 300,
  idleTimeoutMs: 300,
  requestTimeoutMs: 1_500,
  keepAliveTimeoutMs: 200,
  maxRequestsPerSocket: 1_000,
};

/** The servers and trickle timers a test file starts, closed after each test. */
export function closedAfterEach(): { servers: Server[]; timers: NodeJS.Timeout[] } {
  const servers: Server[] = [];
  const timers: NodeJS.Timeout[] = [];
  afterEach(async () => {
    timers.splice(0).forEach(clearInterval);
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });
  return { servers, timers };
}
