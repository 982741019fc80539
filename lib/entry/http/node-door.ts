import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Router } from "@/lib/entry/api/router";
import { log } from "@/lib/foundation/log";

export interface NodeDoorOptions {
  /** The routers that own their paths (the API, the provider webhooks); everything else goes to `fallback`. */
  routers: readonly Router[];
  /** Next.js's request handler: pages, Auth.js, tracking, uploads, and paths it would normalise first. */
  fallback: RequestListener;
  /** The hostname and port the server listens on, for request URLs (never the Host header). */
  hostname: string;
  port: number;
  /** What is read away after an answer sent before the request's body ended (tests shrink it). */
  drain?: DrainLimits;
}

export interface DrainLimits {
  maxBytes: number;
  maxMs: number;
}

/**
 * Twice the API's largest body (10 MB), or 5 s: enough for a client that writes its whole body before
 * reading to get to the answer, without letting one read on for ever.
 */
const DRAIN: DrainLimits = { maxBytes: 20 * 1024 * 1024, maxMs: 5_000 };

/** Any value sends the request through Next.js's routing (the benchmarks' floor). */
const THROUGH_NEXT_HEADER = "x-through-next";

/**
 * The production server's door: a request whose path a router owns is answered by that router, the
 * same one the catch-all routes call under `next dev`; Next.js's own request pipeline is skipped
 * because nothing in these routes uses it. A path Next.js would first normalise or redirect (a
 * trailing slash, `//`, dot segments) still goes to Next.js, which then calls the same router.
 */
export function createNodeDoor(options: NodeDoorOptions): RequestListener {
  const urlHost =
    options.hostname.includes(":") && !options.hostname.startsWith("[") ? `[${options.hostname}]` : options.hostname;
  return (req, res) => {
    const pathname = pathOf(req.url ?? "/");
    const router = options.routers.find((candidate) => candidate.owns(pathname));
    if (!router || req.headers[THROUGH_NEXT_HEADER] !== undefined || !canonical(pathname))
      return options.fallback(req, res);
    answer(router, req, res, `${urlHost}:${options.port}`, options.drain ?? DRAIN).catch((error: unknown) => {
      // Cut off (the request deadline) or gone while its body was read: there is no one to answer.
      if (req.socket.destroyed) return;
      log.error("the server door failed", { method: req.method, path: pathname, error: String(error) });
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify({ error: { code: "INTERNAL_SERVER_ERROR", message: "Something went wrong." } }));
    });
  };
}

function canonical(pathname: string): boolean {
  return (
    !pathname.endsWith("/") && !pathname.includes("//") && !/\/\.\.?(\/|$)/.test(pathname) && !pathname.includes("\\")
  );
}

function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

async function answer(router: Router, req: IncomingMessage, res: ServerResponse, host: string, drain: DrainLimits) {
  const { request, detach } = await requestOf(req, res, host);
  const response = await router(request);
  const payload = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string | string[]> = Object.fromEntries(response.headers);
  if (headers["set-cookie"] !== undefined) headers["set-cookie"] = response.headers.getSetCookie();
  headers["content-length"] = String(payload.length);
  if (req.complete) {
    res.writeHead(response.status, headers);
    res.end(payload);
    return;
  }
  // Answered before the body ended (a 413 past the route's cap, a 401 before reading): the app gets no
  // more of it, and the rest is read away before the close, since closing on unread bytes sends a reset
  // that can destroy the answer before the client has read it.
  detach();
  res.writeHead(response.status, { ...headers, connection: "close" });
  res.write(payload);
  await drainBody(req, drain);
  res.end();
}

/** Reads and drops the rest of the body, up to the limits; the close follows either way. */
function drainBody(req: IncomingMessage, limits: DrainLimits): Promise<void> {
  if (req.complete || req.socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let bytes = 0;
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limits.maxBytes) done();
    };
    const done = () => {
      clearTimeout(timer);
      req.off("data", onData).off("end", done).off("close", done).off("error", done);
      resolve();
    };
    const timer = setTimeout(done, limits.maxMs);
    req.on("data", onData).once("end", done).once("close", done).once("error", done);
    req.resume();
  });
}

/** Bodies this small are read at once (a Buffer is far cheaper than a web stream); larger ones stream to the handler, which checks its own limit. */
const BUFFERED_MAX_BYTES = 1024 * 1024;

/**
 * The Request the handlers read: X-Forwarded-* filled in when absent (the IP allow list reads
 * X-Forwarded-For, as behind Next.js), its URL from the server's own hostname and port, and a signal
 * that aborts when the client goes away (GET /v1/events waits on it).
 */
async function requestOf(
  req: IncomingMessage,
  res: ServerResponse,
  host: string,
): Promise<{ request: Request; detach: () => void }> {
  const { headers: incoming, socket } = req;
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const encrypted = "encrypted" in socket && socket.encrypted === true;
  const forwardedProto = incoming["x-forwarded-proto"];
  if (incoming["x-forwarded-host"] === undefined) headers.set("x-forwarded-host", incoming.host ?? host);
  if (incoming["x-forwarded-port"] === undefined) headers.set("x-forwarded-port", String(socket.localPort));
  if (forwardedProto === undefined) headers.set("x-forwarded-proto", encrypted ? "https" : "http");
  if (incoming["x-forwarded-for"] === undefined && socket.remoteAddress)
    headers.set("x-forwarded-for", socket.remoteAddress);
  const protocol = String(forwardedProto ?? (encrypted ? "https" : "http")).includes("https") ? "https" : "http";
  const aborter = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) aborter.abort();
  });
  const { detach, ...body } = req.method === "GET" || req.method === "HEAD" ? { detach: () => {} } : await bodyOf(req);
  const request = new Request(`${protocol}://${host}${req.url}`, {
    method: req.method,
    headers,
    signal: aborter.signal,
    ...body,
  });
  return { request, detach };
}

interface Body {
  body: Buffer<ArrayBuffer> | ReadableStream<Uint8Array>;
  duplex?: "half";
  /** Stops handing the body to the app, leaving the rest of it unread in `req`. */
  detach: () => void;
}

async function bodyOf(req: IncomingMessage): Promise<Body> {
  const length = Number(req.headers["content-length"]);
  if (Number.isInteger(length) && length <= BUFFERED_MAX_BYTES) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return { body: Buffer.concat(chunks), detach: () => {} };
  }
  return streamOf(req);
}

/** Queued ahead of the app's reads; past it the socket is paused, so a body is never buffered whole. */
const STREAM_HIGH_WATER_BYTES = 64 * 1024;

/**
 * The body as a web stream that pulls only as fast as the app reads. Cancelling it (read-json past its
 * cap) stops reading instead of destroying the socket, so that the answer can still reach the client.
 */
function streamOf(req: IncomingMessage): Body {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const onData = (chunk: Buffer) => {
    controller.enqueue(new Uint8Array(chunk));
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  };
  const onEnd = () => controller.close();
  const onError = (error: Error) => controller.error(error);
  const detach = () => {
    req.off("data", onData).off("end", onEnd).off("error", onError);
    req.pause();
    // A no-op once closed or cancelled; an app still reading learns that the body is not coming.
    controller.error(new Error("The request was answered before its body ended."));
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        req.on("data", onData).on("end", onEnd).on("error", onError);
      },
      pull() {
        req.resume();
      },
      cancel: detach,
    },
    { highWaterMark: STREAM_HIGH_WATER_BYTES, size: (chunk) => chunk.byteLength },
  );
  return { body, duplex: "half", detach };
}
