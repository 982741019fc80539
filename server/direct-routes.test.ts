import fs from "node:fs";
import http, { type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createDirectRoutes } from "./direct-routes.mjs";

/**
 * The webhook shortcut of server/server.mjs over real HTTP, against a built route module of the
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
  fs.writeFileSync(path.join(root, ".next", "server", "app-paths-manifest.json"), "{}"); // no API routes
  const post = `async (request) => {
    const body = await request.text();
    return Response.json({ method: request.method, url: request.url, type: request.headers.get("x-amz-sns-message-type"), body }, { status: 201, headers: { "x-handled-by": "route" } });
  }`;
  const exported = shape === "next" ? `{ routeModule: { async ensureUserland() { this.userland = { POST: ${post} }; } } }` : `{ POST: ${post} }`;
  fs.writeFileSync(path.join(dir, "route.js"), `module.exports = ${exported};`);
  return root;
}

/**
 * A temporary app with API routes in its build manifest: `email_messages/[id]` exports GET and
 * DELETE (echoing what it received), `[...path]` exports GET. The Next.js stand-in answers 299.
 */
function builtApi(): string {
  const root = builtApp();
  const server = path.join(root, ".next", "server");
  const routes: Record<string, string> = { "/api/v1/email_messages/[id]": "GET, DELETE", "/api/v1/[...path]": "GET" };
  const echo = `async (request, context) => Response.json({ method: request.method, url: request.url, params: await context.params, body: await request.text(),
    forwardedFor: request.headers.get("x-forwarded-for"), forwardedProto: request.headers.get("x-forwarded-proto"), aborted: request.signal.aborted }, { headers: { "x-handled-by": "route", "set-cookie": "a=1" } })`;
  for (const [page, methods] of Object.entries(routes)) {
    fs.mkdirSync(path.join(server, "app", page), { recursive: true });
    const exported = methods.split(", ").map((method) => `${method}: ${echo}`).join(", ");
    fs.writeFileSync(path.join(server, "app", page, "route.js"), `module.exports = { routeModule: { async ensureUserland() { this.userland = { ${exported} }; } } };`);
  }
  const manifest = Object.fromEntries(Object.keys(routes).map((page) => [`${page}/route`, `app${page}/route.js`]));
  fs.writeFileSync(path.join(server, "app-paths-manifest.json"), JSON.stringify(manifest));
  return root;
}

async function serve(root: string, options: Parameters<typeof createDirectRoutes>[1] = { port: 3000 }): Promise<string> {
  const direct = createDirectRoutes(root, { booted: () => true, ...options });
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
    for (const [method, route] of [["GET", "/api/provider-events/ses"], ["POST", "/api/provider-events/ses/more"], ["POST", "/api/v1/email_messages"], ["GET", "/dashboard"]]) {
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

describe("direct API routes", () => {
  it("calls the route's handler for the method with decoded params, the URL and X-Forwarded-* Next.js would give it", async () => {
    const origin = await serve(builtApi(), { hostname: "localhost", port: 3000 });
    for (const base of ["/v1", "/api/v1"]) {
      const response = await fetch(`${origin}${base}/email_messages/a%2Fb%C3%A9?x=1`, { method: "DELETE", body: "gone" });
      expect(response.headers.get("x-handled-by")).toBe("route");
      expect(response.headers.get("set-cookie")).toBe("a=1");
      expect(await response.json()).toEqual({
        method: "DELETE",
        url: `http://localhost:3000${base}/email_messages/a%2Fb%C3%A9?x=1`,
        params: { id: "a/bé" },
        body: "gone",
        forwardedFor: "127.0.0.1",
        forwardedProto: "http",
        aborted: false,
      });
    }
    const unknown = await fetch(`${origin}/v1/no/such?y=2`, { headers: { "x-forwarded-for": "203.0.113.7", "x-forwarded-proto": "https" } });
    expect(await unknown.json()).toMatchObject({ url: "https://localhost:3000/v1/no/such?y=2", params: { path: ["no", "such"] }, forwardedFor: "203.0.113.7" });
  });

  it("leaves to Next.js a method the route does not export, HEAD and OPTIONS, X-Through-Next, and paths Next.js normalises", async () => {
    const origin = await serve(builtApi());
    const cases: Array<[string, string, Record<string, string>?]> = [
      ["PUT", "/v1/email_messages/x"],
      ["POST", "/v1/no/such"],
      ["HEAD", "/v1/email_messages/x"],
      ["OPTIONS", "/v1/email_messages/x"],
      ["GET", "/v1/email_messages/x", { "x-through-next": "1" }],
      ["GET", "/v1/email_messages/x/"],
      ["GET", "/api/v1"],
    ];
    for (const [method, route, headers] of cases) {
      const response = await fetch(`${origin}${route}`, { method, headers, body: method === "PUT" || method === "POST" ? "{}" : undefined });
      expect(response.status, `${method} ${route}`).toBe(299);
    }
  });

  it("leaves the API to Next.js when told to (--api-through-next), or when the build has no route table", async () => {
    const withTable = await serve(builtApi(), { api: false });
    expect((await fetch(`${withTable}/v1/email_messages/x`)).status).toBe(299);
    const withoutManifest = builtApp();
    fs.rmSync(path.join(withoutManifest, ".next", "server", "app-paths-manifest.json"));
    const withoutTable = await serve(withoutManifest);
    expect((await fetch(`${withoutTable}/v1/email_messages/x`)).status).toBe(299);
  });

  it("leaves everything to Next.js until the service has booted (Next.js makes requests wait for it)", async () => {
    const boot = globalThis as { __boot?: Promise<unknown> };
    let finish = () => {};
    boot.__boot = new Promise<void>((resolve) => (finish = resolve));
    try {
      const origin = await serve(builtApi(), { booted: undefined });
      expect((await fetch(`${origin}/v1/email_messages/x`)).status).toBe(299);
      finish();
      await boot.__boot;
      expect((await fetch(`${origin}/v1/email_messages/x`)).headers.get("x-handled-by")).toBe("route");
    } finally {
      delete boot.__boot;
    }
  });
});
