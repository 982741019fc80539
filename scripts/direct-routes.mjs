// Provider webhooks straight to their route handlers (scripts/server.mjs), past Next.js's routing.
// SNS and Resend post machine-to-machine at the rate of the mail sent: no pages, no middleware
// (proxy.ts does not match /api/provider-events), no params, no caching. Next.js's request pipeline costs
// ~1 ms of CPU per request on its own, more than verifying and recording the event; the handler
// called here is the SAME function Next.js would call (the built route module's POST, one module
// instance shared with Next.js through Node's module cache), so there is still one handler per door.
// Anything else, and any other method, goes through Next.js as before. If the built module does not
// have the expected shape (a Next.js upgrade), the door falls back to Next.js and says so once.
// docs/benchmarks.md#provider-events-the-sns-door has the figures.
import { createRequire } from "node:module";
import path from "node:path";

const DIRECT_POST_ROUTES = ["/api/provider-events/ses", "/api/provider-events/resend"];

/**
 * Returns `(req, res) => boolean`: true when it took the request (a POST to a provider-event route),
 * false to let Next.js handle it.
 */
export function createDirectRoutes(root) {
  const require = createRequire(path.join(root, "package.json"));
  /** pathname → Promise of the POST handler, or of null when the module cannot be used directly. */
  const handlers = new Map();
  const load = (pathname) => {
    let handler = handlers.get(pathname);
    if (!handler) {
      handler = loadPost(require, root, pathname);
      handlers.set(pathname, handler);
    }
    return handler;
  };
  return (req, res, fallback) => {
    if (req.method !== "POST") return false;
    const pathname = pathOf(req.url);
    if (!DIRECT_POST_ROUTES.includes(pathname)) return false;
    load(pathname).then(
      (post) => (post ? answer(post, req, res) : fallback(req, res)),
      () => fallback(req, res),
    );
    return true;
  };
}

async function loadPost(require, root, pathname) {
  try {
    const built = require(path.join(root, ".next", "server", "app", pathname.slice(1), "route.js"));
    await built.routeModule.ensureUserland();
    const post = built.routeModule.userland.POST;
    if (typeof post !== "function") throw new Error("no POST export");
    return post;
  } catch (error) {
    console.warn(`${pathname}: served through Next.js routing (the built route module cannot be called directly: ${error.message})`);
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

async function answer(post, req, res) {
  let response;
  try {
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    const url = `http://${req.headers.host ?? "localhost"}${req.url}`;
    response = await post(new Request(url, { method: "POST", headers, ...(await bodyOf(req)) }));
  } catch (error) {
    // The handlers answer every failure themselves; this is a bug, answered like Next.js would.
    console.error(`POST ${req.url} failed`, error);
    response = Response.json({ error: { code: "INTERNAL_SERVER_ERROR", message: "Something went wrong." } }, { status: 500 });
  }
  const payload = Buffer.from(await response.arrayBuffer());
  const headers = Object.fromEntries(response.headers);
  headers["content-length"] = String(payload.length);
  res.writeHead(response.status, headers);
  res.end(payload);
}
