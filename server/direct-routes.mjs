// Machine-to-machine requests straight to their route handlers (server/server.mjs), past Next.js's
// routing, whose request pipeline costs ~1 ms of CPU per request on its own: more than a provider
// webhook costs to verify and record, and about half of what a send costs.
// - Provider webhooks: POST /api/provider-events/ses|resend (SNS and Resend post at the rate of the
//   mail sent; no params, no caching; proxy.ts does not match them).
// - The public API: every path under /api/v1/ and /v1/ (next.config.ts rewrites the second to the
//   first) that server/api-route-table.mjs matches in the build's route table, with its params
//   decoded as Next.js decodes them; the handler gets `(request, { params })` as from Next.js. Its
//   routes read no Next.js request context (no cookies()/headers(), after(), draftMode or
//   revalidation): all they use is the Request. proxy.ts does not run for them either.
// The handler called is the SAME function Next.js would call (the built route module's export for the
// method, one module instance shared with Next.js through Node's module cache), so there is still one
// handler per door. What Next.js answers itself stays with it: HEAD and OPTIONS (it implements them
// from the exports), a method a route does not export (its 405), any path it would first normalise or
// redirect, and a request with an `X-Through-Next` header (the benches' floor: Next.js's own JSON
// 404). If the build's manifest or a built module does not have the expected shape (a Next.js
// upgrade), its requests go to Next.js as before and the server says so once.
// docs/benchmarks.md#the-api-past-nextjss-routing has the figures.
import { createRequire } from "node:module";
import path from "node:path";
import { matchApiRoute, readApiRouteTable } from "./api-route-table.mjs";

const DIRECT_POST_ROUTES = ["/api/provider-events/ses", "/api/provider-events/resend"];
/** The methods a route module exports as functions; Next.js itself implements HEAD and OPTIONS. */
const API_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
/** Any value sends the request through Next.js's routing (bench:api and bench:render measure the floor with it). */
const THROUGH_NEXT_HEADER = "x-through-next";

/**
 * Returns `(req, res, fallback) => boolean`: true when it took the request, false to let Next.js
 * handle it. `options.api: false` leaves the public API to Next.js (server/server.mjs
 * --api-through-next); `hostname` and `port` are Next.js's, for the request URL it would build.
 */
export function createDirectRoutes(root, options = {}) {
  const require = createRequire(path.join(root, "package.json"));
  const booted = options.booted ?? bootedGate();
  const api = options.api === false ? null : apiTable(root);
  const userlandOf = moduleLoader(require);
  const hostname = options.hostname ?? "localhost";
  const server = { hostname, urlHostname: formatHostname(hostname), port: options.port };
  return (req, res, fallback) => {
    if (!booted()) return false;
    const pathname = pathOf(req.url);
    let route;
    if (DIRECT_POST_ROUTES.includes(pathname)) {
      if (req.method !== "POST") return false;
      route = { file: path.join(root, ".next", "server", "app", pathname.slice(1), "route.js"), params: undefined };
    } else {
      if (!api || !API_METHODS.has(req.method) || req.headers[THROUGH_NEXT_HEADER] !== undefined) return false;
      route = matchApiRoute(api, pathname);
      if (!route) return false;
    }
    userlandOf(route.file).then(
      (userland) => {
        const handler = userland?.[req.method];
        return typeof handler === "function" ? answer(handler, req, res, route.params, server) : fallback(req, res);
      },
      () => fallback(req, res),
    );
    return true;
  };
}

/**
 * Next.js serves no request before instrumentation.ts's register() has booted the service (migrations,
 * the seed): it prepares on its first request and makes every request wait for that. Until the boot
 * lib/entry/boot/boot.ts keeps on globalThis has finished, requests go to Next.js, which starts and waits
 * for it; after that the check is one boolean.
 */
function bootedGate() {
  let booted = false;
  let watched = null;
  return () => {
    if (booted) return true;
    const boot = globalThis.__boot;
    if (boot && boot !== watched) {
      watched = boot;
      boot.then(() => (booted = true), () => {});
    }
    return false;
  };
}

function apiTable(root) {
  try {
    return readApiRouteTable(root);
  } catch (error) {
    console.warn(`/api/v1: served through Next.js routing (the build's route table cannot be read: ${error.message})`);
    return null;
  }
}

/** File → Promise of the built route module's exports, or of null when the module cannot be used directly (said once). */
function moduleLoader(require) {
  const modules = new Map();
  return (file) => {
    let userland = modules.get(file);
    if (!userland) {
      userland = loadUserland(require, file);
      modules.set(file, userland);
    }
    return userland;
  };
}

async function loadUserland(require, file) {
  try {
    const built = require(file);
    await built.routeModule.ensureUserland();
    const userland = built.routeModule.userland;
    if (typeof userland !== "object" || userland === null) throw new Error("no route exports");
    return userland;
  } catch (error) {
    console.warn(`${file}: served through Next.js routing (the built route module cannot be called directly: ${error.message})`);
    return null;
  }
}

/** Bodies this small are read at once (a Buffer is far cheaper than a web stream); larger ones stream to the handler, which checks its own limit. */
const BUFFERED_MAX_BYTES = 1024 * 1024;

async function bodyOf(req) {
  const length = Number(req.headers["content-length"]);
  if (Number.isInteger(length) && length <= BUFFERED_MAX_BYTES) {
    const chunks = [];
    await new Promise((resolve, reject) => {
      req.on("data", (chunk) => chunks.push(chunk));
      req.on("end", resolve);
      req.on("error", reject);
    });
    return { body: Buffer.concat(chunks) };
  }
  const body = new ReadableStream({
    start(controller) {
      req.on("data", (chunk) => controller.enqueue(new Uint8Array(chunk)));
      req.on("end", () => controller.close());
      req.on("error", (error) => controller.error(error));
    },
    cancel() {
      req.destroy();
    },
  });
  return { body, duplex: "half" };
}

function pathOf(url) {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/**
 * The Request Next.js would build: its headers after it filled in the X-Forwarded-* it adds when
 * absent (the IP allow list reads X-Forwarded-For), its URL from its own hostname and port (never the
 * Host header), and a signal that aborts when the client goes away (GET /v1/events waits on it).
 */
async function requestOf(req, res, server) {
  const { headers: incoming, socket } = req;
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const forwardedProto = incoming["x-forwarded-proto"];
  if (incoming["x-forwarded-host"] === undefined) headers.set("x-forwarded-host", incoming.host ?? server.hostname);
  if (incoming["x-forwarded-port"] === undefined) headers.set("x-forwarded-port", String(server.port ?? socket.localPort));
  if (forwardedProto === undefined) headers.set("x-forwarded-proto", socket.encrypted ? "https" : "http");
  if (incoming["x-forwarded-for"] === undefined && socket.remoteAddress) headers.set("x-forwarded-for", socket.remoteAddress);
  const protocol = (forwardedProto ?? (socket.encrypted ? "https" : "http")).includes("https") ? "https" : "http";
  const url = `${protocol}://${server.urlHostname}:${server.port ?? socket.localPort}${req.url}`;
  const aborter = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) aborter.abort();
  });
  const body = req.method === "GET" ? {} : await bodyOf(req);
  return new Request(url, { method: req.method, headers, signal: aborter.signal, ...body });
}

async function answer(handler, req, res, params, server) {
  let response;
  let payload;
  try {
    response = await handler(await requestOf(req, res, server), { params: Promise.resolve(params) });
    payload = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    // The handlers answer every failure themselves; this is a bug, answered like Next.js would.
    console.error(`${req.method} ${req.url} failed`, error);
    response = Response.json({ error: { code: "INTERNAL_SERVER_ERROR", message: "Something went wrong." } }, { status: 500 });
    payload = Buffer.from(await response.arrayBuffer());
  }
  const headers = Object.fromEntries(response.headers);
  if (headers["set-cookie"] !== undefined) headers["set-cookie"] = response.headers.getSetCookie();
  headers["content-length"] = String(payload.length);
  res.writeHead(response.status, headers);
  res.end(payload);
}

/** As Next.js writes a hostname into a URL: an IPv6 address in brackets. */
function formatHostname(hostname) {
  return hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname;
}
