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
}

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
    answer(router, req, res, `${urlHost}:${options.port}`).catch((error: unknown) => {
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

async function answer(router: Router, req: IncomingMessage, res: ServerResponse, host: string) {
  const response = await router(await requestOf(req, res, host));
  const payload = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string | string[]> = Object.fromEntries(response.headers);
  if (headers["set-cookie"] !== undefined) headers["set-cookie"] = response.headers.getSetCookie();
  headers["content-length"] = String(payload.length);
  res.writeHead(response.status, headers);
  res.end(payload);
}

/** Bodies this small are read at once (a Buffer is far cheaper than a web stream); larger ones stream to the handler, which checks its own limit. */
const BUFFERED_MAX_BYTES = 1024 * 1024;

/**
 * The Request the handlers read: X-Forwarded-* filled in when absent (the IP allow list reads
 * X-Forwarded-For, as behind Next.js), its URL from the server's own hostname and port, and a signal
 * that aborts when the client goes away (GET /v1/events waits on it).
 */
async function requestOf(req: IncomingMessage, res: ServerResponse, host: string): Promise<Request> {
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
  const body = req.method === "GET" || req.method === "HEAD" ? {} : await bodyOf(req);
  return new Request(`${protocol}://${host}${req.url}`, {
    method: req.method,
    headers,
    signal: aborter.signal,
    ...body,
  });
}

async function bodyOf(req: IncomingMessage): Promise<{ body: Buffer | ReadableStream<Uint8Array>; duplex?: "half" }> {
  const length = Number(req.headers["content-length"]);
  if (Number.isInteger(length) && length <= BUFFERED_MAX_BYTES) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return { body: Buffer.concat(chunks) };
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
      req.on("end", () => controller.close());
      req.on("error", (error) => controller.error(error));
    },
    cancel() {
      req.destroy();
    },
  });
  return { body, duplex: "half" };
}
