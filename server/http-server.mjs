// The HTTP server in front of Next.js (server/server.mjs): timeouts against slow clients, keep-alive
// limits, and JSON answers for what Node's HTTP parser refuses before any route runs. Plain Node ESM
// with no dependencies, so it runs before anything is compiled and tests can drive it with a plain
// handler (server/http-server.test.ts). docs/self-hosting.md#http-timeouts describes the behaviour.
import { randomUUID } from "node:crypto";
import http from "node:http";

/** Defaults of the settings below; lib/foundation/env.ts repeats them (a test keeps both in step). */
export const HTTP_DEFAULTS = Object.freeze({
  headersTimeoutMs: 10_000,
  idleTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  maxRequestsPerSocket: 1_000,
});

/** Setting → environment variable. */
export const HTTP_ENV = Object.freeze({
  headersTimeoutMs: "HTTP_HEADERS_TIMEOUT_MS",
  idleTimeoutMs: "HTTP_IDLE_TIMEOUT_MS",
  requestTimeoutMs: "HTTP_REQUEST_TIMEOUT_MS",
  keepAliveTimeoutMs: "HTTP_KEEP_ALIVE_TIMEOUT_MS",
  maxRequestsPerSocket: "HTTP_MAX_REQUESTS_PER_SOCKET",
});

// Node's timers hold at most a signed 32-bit number of milliseconds.
const MAX_SETTING = 2_147_483_647;

/** Status and envelope code of each refusal; the codes are in lib/foundation/errors.ts too (a test checks it). */
export const CLIENT_ERRORS = Object.freeze({
  timeout: { status: 408, code: "REQUEST_TIMEOUT", message: "The request was not received in time." },
  headersTooLarge: {
    status: 431,
    code: "REQUEST_HEADER_FIELDS_TOO_LARGE",
    message: "The request's headers are larger than the server accepts (16 KB in all).",
  },
  chunkExtensionsTooLarge: { status: 413, code: "PAYLOAD_TOO_LARGE", message: "The request's chunk extensions are too large." },
  badRequest: {
    status: 400,
    code: "BAD_REQUEST",
    message: "The request is not valid HTTP/1.1 (its framing: request line, headers, Content-Length or chunked body).",
  },
  undecodablePath: { status: 400, code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", message: "The URL path is not valid percent-encoded UTF-8." },
});

/** Paths whose answers are JSON (docs/api.md#decided-errors): the API under both base paths, and /api. */
const JSON_PATH = /^\/(api|v1)(\/|$)/;

// After answering a request that cannot be parsed, keep reading (and dropping) what the client still
// sends for a moment before closing: closing with unread bytes makes the kernel send a reset, which
// can destroy the answer in the client's buffers before it reads it.
const LINGER_MS = 2_000;

/**
 * Reads the settings from the environment (unset or empty: the default). Throws one error naming
 * every bad variable, in the format of lib/foundation/env.ts.
 */
export function readHttpSettings(source = process.env) {
  const settings = { ...HTTP_DEFAULTS };
  const problems = [];
  for (const [key, name] of Object.entries(HTTP_ENV)) {
    const raw = source[name];
    if (raw === undefined || raw === "") continue;
    const value = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
    if (!Number.isSafeInteger(value) || value < 1 || value > MAX_SETTING) {
      problems.push(`  ${name}: must be a positive integer up to ${MAX_SETTING}, got "${raw}"`);
    } else {
      settings[key] = value;
    }
  }
  // Node refuses a headers timeout longer than the whole-request timeout; say which variables.
  if (problems.length === 0 && settings.headersTimeoutMs > settings.requestTimeoutMs) {
    problems.push(`  ${HTTP_ENV.headersTimeoutMs}: must not exceed ${HTTP_ENV.requestTimeoutMs} (${settings.requestTimeoutMs})`);
  }
  if (problems.length > 0) throw new Error(`Invalid configuration:\n${problems.join("\n")}`);
  return settings;
}

/**
 * A node:http server for `handler` with:
 * - headersTimeoutMs: all request headers within this time from the first byte;
 * - idleTimeoutMs: while a request body is still arriving, at most this long without a byte;
 * - requestTimeoutMs: the whole request (headers and body) within this time;
 * - keepAliveTimeoutMs and maxRequestsPerSocket: how long and how often a connection is reused;
 * and every refusal answered as `{ "error": { "code", "message" } }` with `Connection: close` and an
 * X-Request-Id, logged with that id (one JSON line, as lib/foundation/log.ts writes them; `options.log` replaces
 * the writer in tests), never in place of the app's answer to a request it has already received in full.
 */
export function createHardenedServer(handler, settings = HTTP_DEFAULTS, options = {}) {
  const log = options.log ?? logRefusal;
  const server = http.createServer(
    {
      headersTimeout: settings.headersTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      // Node checks the two timeouts above this often; its 30 s default would let 10 s run to 40 s.
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(settings.headersTimeoutMs / 10))),
    },
    (req, res) => (refuseUndecodablePath(req, res, log) ? undefined : handler(req, res)),
  );
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;
  server.maxRequestsPerSocket = settings.maxRequestsPerSocket;
  // The socket's inactivity timer: Node re-arms it on every byte either way, and uses the
  // keep-alive timeout instead between requests. With a listener, closing is up to onIdle.
  server.timeout = settings.idleTimeoutMs;
  server.on("timeout", (socket) => onIdle(socket, log));
  server.on("clientError", (error, socket) => onClientError(error, socket, log));
  return server;
}

/** No byte in either direction for idleTimeoutMs (or keepAliveTimeoutMs between requests). */
function onIdle(socket, log) {
  const res = socket._httpMessage;
  const req = res?.req;
  if (res && req && !req.complete) {
    // The body stopped while the app still had room for more: the client is stalling.
    if (req.readableLength < req.readableHighWaterMark) answerAndDestroy(socket, CLIENT_ERRORS.timeout, log);
    // Otherwise the app is not reading yet; the whole-request timeout still applies.
    return;
  }
  // The app is still working on a complete request: that is its time, not the client's.
  if (res && !res.headersSent) return;
  // An idle connection between requests, or an answer the client stopped reading.
  socket.destroy();
}

/**
 * Node's parser refused the bytes on this connection, or a header or request timeout expired (Node
 * calls this for both, and for socket errors).
 */
function onClientError(error, socket, log) {
  if (closing.has(socket)) return; // answered already; an errored parser reports every further chunk again
  if (error.code === "ECONNRESET" || error.code === "EPIPE" || !socket.writable) {
    socket.destroy();
    return;
  }
  const res = socket._httpMessage;
  // A request already received in full is in the app's hands (the error is in bytes after it, such
  // as a stray byte past its Content-Length): its answer says what was done, so it goes out first,
  // then the connection closes. Answering 400 instead would make a retrying client do it twice.
  if (res?.req?.complete) {
    closeAfterResponse(res, socket);
    return;
  }
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    // The parser still works: a late rest of the body must not reach the app after this answer.
    answerAndDestroy(socket, CLIENT_ERRORS.timeout, log);
    return;
  }
  answerAndLinger(socket, clientErrorFor(error), log);
}

function clientErrorFor(error) {
  if (error.code === "HPE_HEADER_OVERFLOW") return CLIENT_ERRORS.headersTooLarge;
  if (error.code === "HPE_CHUNK_EXTENSIONS_OVERFLOW") return CLIENT_ERRORS.chunkExtensionsTooLarge;
  return CLIENT_ERRORS.badRequest;
}

const closing = new WeakSet();

function closeAfterResponse(res, socket) {
  closing.add(socket);
  // Not yet started: Node then sends `Connection: close` and closes the socket after the answer.
  if (!res.headersSent) res.shouldKeepAlive = false;
  else res.once("finish", () => socket.destroySoon());
}

/** Like Node's own refusal, with a JSON body: never written into an answer already on its way. */
function answerAndDestroy(socket, refusal, log) {
  if (socket.writable && !socket._httpMessage?.headersSent) socket.write(envelopeResponse(refusal, socket, log));
  socket.destroy();
}

/** The parser is in its error state, so nothing more reaches the app: half-close, drain, then close. */
function answerAndLinger(socket, refusal, log) {
  closing.add(socket);
  if (socket._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(envelopeResponse(refusal, socket, log));
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once("end", () => socket.destroy());
  socket.once("close", () => clearTimeout(timer));
}

/**
 * A path segment that is not percent-encoded UTF-8 (`%zz`, `%C0%AE`, `%ED%A0%80`, `%FF`) makes Next.js
 * fail decoding route parameters with an unlogged plain-text 500 before any route runs. Answered here
 * instead, before Next.js sees it: 400 in the JSON envelope (param "path") under /api and /v1, a plain
 * 400 page elsewhere, with an X-Request-Id and a log line. Here rather than in proxy.ts: the proxy
 * (Next.js middleware) cost about 0.7 ms of CPU on every API request (server CPU per single send
 * 4.4 ms with it, 3.7–3.9 without), this check nothing unless the path holds a "%". Returns true when
 * it answered.
 */
function refuseUndecodablePath(req, res, log) {
  const url = req.url ?? "";
  const end = url.indexOf("?");
  const path = end < 0 ? url : url.slice(0, end);
  if (!path.includes("%")) return false;
  const segment = path.split("/").find((part) => part.includes("%") && !decodes(part));
  if (segment === undefined) return false;
  const requestId = randomUUID();
  const { status, code } = CLIENT_ERRORS.undecodablePath;
  const message = `The URL path segment "${segment}" is not valid percent-encoded UTF-8.`;
  log({ requestId, status, code, remoteAddress: req.socket.remoteAddress, path });
  const headers = { "Cache-Control": "no-store", "X-Request-Id": requestId };
  // Whatever body the request has is not read: the connection is not reused.
  if (!req.complete) res.shouldKeepAlive = false;
  const json = JSON_PATH.test(path);
  const body = json
    ? JSON.stringify({ error: { code, message, param: "path" } })
    : '<!doctype html><meta charset="utf-8"><title>Bad request</title><h1>Bad request</h1><p>This address is not valid: part of it is not valid percent-encoded UTF-8. Check the link.</p>';
  res.writeHead(status, {
    ...headers,
    "Content-Type": json ? "application/json; charset=utf-8" : "text/html; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
  return true;
}

function decodes(segment) {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/** A warn line in lib/foundation/log.ts's format (stderr), unless LOG_LEVEL says error or silent. */
function logRefusal(fields) {
  if (process.env.LOG_LEVEL === "error" || process.env.LOG_LEVEL === "silent") return;
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: "warn", message: "request refused by the HTTP server", ...fields })}\n`);
}

/** The refusal as raw HTTP, with a new request id that the log line names too. */
function envelopeResponse({ status, code, message }, socket, log) {
  const requestId = randomUUID();
  log({ requestId, status, code, remoteAddress: socket?.remoteAddress });
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
