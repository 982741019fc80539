import { randomUUID } from "node:crypto";
import http, { type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { ERROR_STATUS } from "@/lib/entry/api/error-status";
import { undecodablePathAnswer } from "@/lib/entry/api/undecodable-path";
import type { ErrorCode } from "@/lib/foundation/errors";
import { env } from "@/lib/foundation/env";
import { log } from "@/lib/foundation/log";
import { responseOnSocket } from "@/internals/node-http";

/** docs/self-hosting.md#http-timeouts; the values come from the HTTP_* settings of lib/foundation/env.ts. */
export interface HttpSettings {
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxRequestsPerSocket: number;
}

export function httpSettingsFromEnv(): HttpSettings {
  const e = env();
  return {
    headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
    idleTimeoutMs: e.HTTP_IDLE_TIMEOUT_MS,
    requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    maxRequestsPerSocket: e.HTTP_MAX_REQUESTS_PER_SOCKET,
  };
}

interface Refusal {
  code: ErrorCode;
  message: string;
}

const REFUSALS = {
  timeout: { code: "REQUEST_TIMEOUT", message: "The request was not received in time." },
  headersTooLarge: {
    code: "REQUEST_HEADER_FIELDS_TOO_LARGE",
    message: "The request's headers are larger than the server accepts (16 KB in all).",
  },
  chunkExtensionsTooLarge: { code: "PAYLOAD_TOO_LARGE", message: "The request's chunk extensions are too large." },
  badRequest: {
    code: "BAD_REQUEST",
    message: "The request is not valid HTTP/1.1 (its framing: request line, headers, Content-Length or chunked body).",
  },
} satisfies Record<string, Refusal>;

export interface RefusalLogFields {
  requestId: string;
  status: number;
  code: string;
  remoteAddress?: string;
  path?: string;
}

type RefusalLog = (fields: RefusalLogFields) => void;

// After answering a request that cannot be parsed, keep reading (and dropping) what the client still
// sends for a moment: closing with unread bytes makes the kernel send a reset that can destroy the answer.
const LINGER_MS = 2_000;

/**
 * Node's own request timeout stays as a backstop this much after ours, for a request our deadline never
 * sees (Node answers an unknown `Expect` with 417 itself): set equal, it could race ours and, after an
 * answer sent before the body ended, write its 408 behind that answer.
 */
const NODE_REQUEST_TIMEOUT_BACKSTOP_MS = 1_000;

/**
 * A node:http server for `handler` with timeouts against slow clients, keep-alive limits, and every
 * refusal answered as the JSON envelope with `Connection: close` and a logged X-Request-Id, never in
 * place of the app's answer to a request it has already received in full.
 */
export function createHardenedServer(
  handler: RequestListener,
  settings: HttpSettings,
  options: { log?: RefusalLog } = {},
) {
  const logRefusal =
    options.log ?? ((fields: RefusalLogFields) => log.warn("request refused by the HTTP server", { ...fields }));
  const server = http.createServer(
    {
      headersTimeout: settings.headersTimeoutMs,
      requestTimeout: settings.requestTimeoutMs + NODE_REQUEST_TIMEOUT_BACKSTOP_MS,
      // Node checks the two timeouts above this often; its 30 s default would let 10 s run to 40 s.
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(settings.headersTimeoutMs / 10))),
    },
    (req, res) => {
      enforceRequestDeadline(req, res, settings.requestTimeoutMs, logRefusal);
      if (!refuseUndecodablePath(req, res, logRefusal)) handler(req, res);
    },
  );
  server.on("connection", (socket: Socket) => requestStarts.set(socket, performance.now()));
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;
  server.maxRequestsPerSocket = settings.maxRequestsPerSocket;
  // The socket's inactivity timer: re-armed on every byte; the keep-alive timeout applies between requests.
  server.timeout = settings.idleTimeoutMs;
  server.on("timeout", (socket: Socket) => onIdle(socket, logRefusal));
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => onClientError(error, socket, logRefusal));
  return server;
}

/** When the current request on a socket began, at the latest: the connection's opening, then each answer's end. */
const requestStarts = new WeakMap<Socket, number>();

/**
 * The whole-request deadline, ours rather than Node's: Node checks it only every connectionsCheckingInterval
 * (60 s ran to 61 s), and once it has handed the request over it cannot tell an early answer (a 413 before
 * the body ended) from none. Counted from no later than the request's first byte, so never longer than
 * `timeoutMs`; a keep-alive request loses the pause before it.
 */
function enforceRequestDeadline(req: IncomingMessage, res: ServerResponse, timeoutMs: number, logRefusal: RefusalLog) {
  const socket = req.socket;
  res.once("finish", () => requestStarts.set(socket, performance.now()));
  if (req.complete) return;
  const startedAt = requestStarts.get(socket) ?? performance.now();
  const timer = setTimeout(
    () => {
      if (req.complete || socket.destroyed) return;
      // The answer (or its start) is out already: nothing may follow it but the close.
      if (res.headersSent) socket.destroy();
      else answerAndDestroy(socket, REFUSALS.timeout, logRefusal, pathOf(req));
    },
    Math.max(0, startedAt + timeoutMs - performance.now()),
  );
  const clear = () => clearTimeout(timer);
  req.once("end", clear);
  req.once("close", clear);
}

/** No byte in either direction for idleTimeoutMs (or keepAliveTimeoutMs between requests). */
function onIdle(socket: Socket, logRefusal: RefusalLog) {
  const res = responseOnSocket(socket);
  const req = res?.req;
  if (res && req && !req.complete) {
    // The body stopped while the app still had room for more: the client is stalling. Otherwise the
    // app is not reading yet, and the whole-request timeout still applies.
    if (req.readableLength < req.readableHighWaterMark) answerAndDestroy(socket, REFUSALS.timeout, logRefusal);
    return;
  }
  // The app is still working on a complete request: that is its time, not the client's.
  if (res && !res.headersSent) return;
  socket.destroy();
}

/** Node's parser refused the bytes on this connection, or a header or request timeout expired. */
function onClientError(error: NodeJS.ErrnoException, socket: Socket, logRefusal: RefusalLog) {
  if (closing.has(socket)) return; // answered already; an errored parser reports every further chunk again
  if (error.code === "ECONNRESET" || error.code === "EPIPE" || !socket.writable) {
    socket.destroy();
    return;
  }
  const res = responseOnSocket(socket);
  // A request received in full is in the app's hands: its answer goes out first, then the connection
  // closes. Answering 400 instead would make a retrying client do it twice.
  if (res?.req?.complete) {
    closeAfterResponse(res, socket);
    return;
  }
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    // The parser still works: a late rest of the body must not reach the app after this answer.
    answerAndDestroy(socket, REFUSALS.timeout, logRefusal);
    return;
  }
  answerAndLinger(socket, refusalFor(error), logRefusal);
}

function refusalFor(error: NodeJS.ErrnoException): Refusal {
  if (error.code === "HPE_HEADER_OVERFLOW") return REFUSALS.headersTooLarge;
  if (error.code === "HPE_CHUNK_EXTENSIONS_OVERFLOW") return REFUSALS.chunkExtensionsTooLarge;
  return REFUSALS.badRequest;
}

const closing = new WeakSet<Socket>();

function closeAfterResponse(res: ServerResponse, socket: Socket) {
  closing.add(socket);
  // Not yet started: Node then sends `Connection: close` and closes the socket after the answer.
  if (!res.headersSent) res.shouldKeepAlive = false;
  else res.once("finish", () => socket.destroySoon());
}

function answerAndDestroy(socket: Socket, refusal: Refusal, logRefusal: RefusalLog, path?: string) {
  if (socket.writable && !responseOnSocket(socket)?.headersSent)
    socket.write(envelopeResponse(refusal, socket, logRefusal, path));
  socket.destroy();
}

/** The parser is in its error state, so nothing more reaches the app: half-close, drain, then close. */
function answerAndLinger(socket: Socket, refusal: Refusal, logRefusal: RefusalLog) {
  closing.add(socket);
  if (responseOnSocket(socket)?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(envelopeResponse(refusal, socket, logRefusal));
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once("end", () => socket.destroy());
  socket.once("close", () => clearTimeout(timer));
}

/** Every path, before Next.js sees it: the check costs nothing unless the path holds a "%". */
function refuseUndecodablePath(req: IncomingMessage, res: ServerResponse, logRefusal: RefusalLog): boolean {
  const path = pathOf(req);
  const answer = undecodablePathAnswer(path);
  if (answer === null) return false;
  const requestId = randomUUID();
  logRefusal({
    requestId,
    status: answer.status,
    code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
    remoteAddress: req.socket.remoteAddress,
    path,
  });
  // Whatever body the request has is not read: the connection is not reused.
  if (!req.complete) res.shouldKeepAlive = false;
  res.writeHead(answer.status, {
    "Cache-Control": "no-store",
    "X-Request-Id": requestId,
    "Content-Type": answer.contentType,
    "Content-Length": Buffer.byteLength(answer.body),
  });
  res.end(answer.body);
  return true;
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? "";
  const end = url.indexOf("?");
  return end < 0 ? url : url.slice(0, end);
}

/** The refusal as raw HTTP, with a new request id that the log line names too (and the path, when known). */
function envelopeResponse({ code, message }: Refusal, socket: Socket, logRefusal: RefusalLog, path?: string): string {
  const status = ERROR_STATUS[code];
  const requestId = randomUUID();
  logRefusal({ requestId, status, code, remoteAddress: socket.remoteAddress, ...(path === undefined ? {} : { path }) });
  const body = JSON.stringify({ error: { code, message } });
  return (
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
    "Content-Type: application/json; charset=utf-8\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    "Cache-Control: no-store\r\n" +
    `X-Request-Id: ${requestId}\r\n` +
    "Connection: close\r\n\r\n" +
    body
  );
}
