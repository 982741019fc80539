import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * node:http keeps the response in progress on its socket as `socket._httpMessage` (not public). The
 * hardened HTTP server (lib/entry/http/hardened-server.ts) reads it when a socket times out or its
 * parser fails, to tell a stalling client from an app that is still working, and never to answer on
 * top of a response already under way. The public API has no way to ask a socket for its request.
 */
export const NODE_HTTP = {
  dependency: "node",
  writtenFor: "24.21.0",
  file: "internals/node-http.ts",
  recheck:
    "that lib/_http_server.js still sets socket._httpMessage to the ServerResponse (with .req) while a request is in progress",
};

export type ResponseInProgress = ServerResponse & { req?: IncomingMessage };

/** The response node:http is writing on this socket, if a request is in progress. */
export function responseOnSocket(socket: Socket): ResponseInProgress | undefined {
  return (socket as Socket & { _httpMessage?: ResponseInProgress })._httpMessage ?? undefined;
}
