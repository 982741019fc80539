import fs from "node:fs";
import http, { type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createDirectRoutes } from "./direct-routes.mjs";

/**
 * The webhook shortcut of scripts/server.mjs over real HTTP, against a built route module of the
 * shape Next.js's build writes (`routeModule.ensureUserland()`, then `routeModule.userland.POST`):
 * a stand-in written to a temporary app directory, since a real one needs `next build`.
 */
const roots: string[] = [];
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

/** A temporary app whose built SES route echoes what its POST received; `shape: "unknown"` mimics another Next.js. */
function builtApp(shape: "next" | "unknown" = "next"): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "direct-routes-"));
  roots.push(root);
  const dir = path.join(root, ".next", "server", "app", "api", "provider-events", "ses");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(root, "package.json"), "{}");
  const post = `async (request) => {
    const body = await request.text();
    return Response.json({ method: request.method, url: request.url, type: request.headers.get("x-amz-sns-message-type"), body }, { status: 201, headers: { "x-handled-by": "route" } });
  }`;
  const exported = shape === "next" ? `{ routeModule: { async ensureUserland() { this.userland = { POST: ${post} }; } } }` : `{ POST: ${post} }`;
  fs.writeFileSync(path.join(dir, "route.js"), `module.exports = ${exported};`);
  return root;
}

async function serve(root: string): Promise<string> {
  const direct = createDirectRoutes(root);
  const next = (_req: http.IncomingMessage, res: http.ServerResponse) => res.writeHead(299, { "x-handled-by": "next" }).end("next");
  const server = http.createServer((req, res) => direct(req, res, next) || next(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("direct provider routes", () => {
  it("hands a POST to the built route's own handler with its headers, query and body, and sends its answer back", async () => {
    const origin = await serve(builtApp());
    const body = JSON.stringify({ Type: "Notification", Message: "é".repeat(70_000) });
    const response = await fetch(`${origin}/api/provider-events/ses?x=1`, { method: "POST", headers: { "x-amz-sns-message-type": "Notification" }, body });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-handled-by")).toBe("route");
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ method: "POST", url: expect.stringMatching(/\/api\/provider-events\/ses\?x=1$/), type: "Notification", body });
  });

  it("streams a body of unknown length (chunked) to the handler", async () => {
    const origin = await serve(builtApp());
    const parts = ["{\"Type\":", "\"Notification\"}"];
    const stream = new ReadableStream({
      pull(controller) {
        const part = parts.shift();
        if (part === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(part));
      },
    });
    const response = await fetch(`${origin}/api/provider-events/ses`, { method: "POST", body: stream, duplex: "half" } as RequestInit);
    expect(response.status).toBe(201);
    expect((await response.json()).body).toBe('{"Type":"Notification"}');
  });

  it("leaves other methods and paths to Next.js", async () => {
    const origin = await serve(builtApp());
    for (const [method, route] of [["GET", "/api/provider-events/ses"], ["POST", "/api/provider-events/ses/more"], ["POST", "/api/v1/email_messages"]]) {
      const response = await fetch(`${origin}${route}`, { method, body: method === "POST" ? "{}" : undefined });
      expect(response.headers.get("x-handled-by"), `${method} ${route}`).toBe("next");
    }
  });

  it("falls back to Next.js when the built module does not have the expected shape, or is missing", async () => {
    const origin = await serve(builtApp("unknown"));
    for (const route of ["/api/provider-events/ses", "/api/provider-events/resend"]) {
      const response = await fetch(`${origin}${route}`, { method: "POST", body: "{}" });
      expect(response.status, route).toBe(299);
      expect(await response.text()).toBe("next");
    }
  });
});
