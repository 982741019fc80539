import "server-only";
import http from "node:http";
import { errorFields, log } from "@/lib/foundation/log";
import { liveResponse, metricsResponse, readyResponse } from "./responses";

/** For processes that serve no HTTP: the server's /api/health/* and /api/metrics answers on WORKER_HEALTH_PORT or INBOUND_HEALTH_PORT. */
export function startHealthServer(port: number, name = "worker"): Promise<http.Server> {
  const server = http.createServer((incoming, outgoing) => {
    void answer(incoming)
      .then(async (response) => {
        outgoing.writeHead(response.status, Object.fromEntries(response.headers));
        outgoing.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch((error: unknown) => {
        log.error("health listener failed", errorFields(error, { stack: true }));
        if (!outgoing.headersSent) outgoing.writeHead(500);
        outgoing.end();
      });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, () => {
      server.off("error", reject);
      log.info(`${name} health listener started`, { port });
      resolve(server);
    });
  });
}

async function answer(incoming: http.IncomingMessage): Promise<Response> {
  const path = new URL(incoming.url ?? "/", "http://worker").pathname;
  if (incoming.method !== "GET" && incoming.method !== "HEAD")
    return new Response(null, { status: 405, headers: { allow: "GET, HEAD" } });
  if (path === "/health/live") return liveResponse();
  if (path === "/health/ready") return readyResponse();
  if (path === "/metrics") {
    const headers = new Headers();
    if (incoming.headers.authorization) headers.set("authorization", incoming.headers.authorization);
    return metricsResponse(new Request("http://worker/metrics", { headers }));
  }
  return new Response("Not found\n", { status: 404 });
}

/** Stops accepting probes; open keep-alive sockets are closed too, so shutdown is not held up. */
export function stopHealthServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
