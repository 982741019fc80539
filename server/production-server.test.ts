import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@/lib/testing/wait-for";

/**
 * The production door: the built app under `npm start` (server/start.mjs builds first when the sources
 * are newer than the build; `npm test` builds before the unit tests). Every request is sent twice to
 * the same server, once as it comes (the server's door: our router in front of Next.js) and once with
 * `X-Through-Next` (Next.js's routing, then the catch-all route, then the same router), and the two
 * answers must be the same. It never skips: a server that cannot start fails the suite.
 */
const root = path.resolve(import.meta.dirname, "..");
const PORT = 3000 + (process.pid % 2000) + 2000;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const KEY = "key_DIRECT0000000000:direct-secret-direct-secret-direct-secret";
const auth = (key = KEY) => `Basic ${Buffer.from(key).toString("base64")}`;
const json = { authorization: auth(), "content-type": "application/json" };

let server: ChildProcess | null = null;
let dataDir = "";

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "direct-api-"));
  server = spawn(process.execPath, ["server/start.mjs", "--hostname", "127.0.0.1", "--port", String(PORT)], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: "",
      DATA_DIR: dataDir,
      SEED_DEMO: "true",
      SEED_API_KEY: KEY,
      LOG_LEVEL: "error",
      NEXT_TELEMETRY_DISABLED: "1",
      DELIVERY_PROVIDER: "local",
      RATE_LIMIT_PER_SECOND: "10000",
      RATE_LIMIT_BURST: "10000",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const child = server;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      return fetch(`${ORIGIN}/api/health/ready`).then(
        (r) => r.status === 200,
        () => false,
      );
    },
    { what: "the production server (npm start) to answer /api/health/ready", timeout: 280_000 },
  );
}, 300_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill("SIGTERM");
    await new Promise((resolve) => server!.once("exit", resolve));
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function call(
  route: string,
  init: RequestInit & { headers?: Record<string, string> },
  throughNext: boolean,
): Promise<Answer> {
  const headers = { ...(init.headers ?? { authorization: auth() }), ...(throughNext ? { "x-through-next": "1" } : {}) };
  const response = await fetch(`${ORIGIN}${route}`, { ...init, headers, redirect: "manual" });
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

/** Ids, times and request ids differ between two sends: anything else must not. */
function comparable(body: string): unknown {
  if (body === "") return "";
  return JSON.parse(body, (_key, value) => {
    if (typeof value !== "string") return value;
    if (/^[a-z]+_[A-Za-z0-9]{16}$/.test(value)) return "<id>";
    if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(value)) return "<time>";
    return value;
  });
}

/** The headers a client or a cache acts on; Date, the connection's own and the framing differ by transport. */
const SAME_VALUE = [
  "content-type",
  "cache-control",
  "allow",
  "location",
  "access-control-allow-origin",
  "ratelimit-limit",
  "www-authenticate",
  "retry-after",
];
const PRESENT = ["x-request-id", "ratelimit-remaining", "ratelimit-reset"];

function expectSameAnswer(direct: Answer, next: Answer, label: string) {
  expect(direct.status, label).toBe(next.status);
  expect(comparable(direct.body), label).toEqual(comparable(next.body));
  for (const name of SAME_VALUE) expect(direct.headers[name], `${label}: ${name}`).toBe(next.headers[name]);
  for (const name of PRESENT) expect(name in direct.headers, `${label}: ${name}`).toBe(name in next.headers);
  // Proof that the two took different doors: Next.js adds its RSC Vary to whatever it answers.
  expect(next.headers.vary, label).toMatch(/\brsc\b/);
  expect(direct.headers.vary, label).toBeUndefined();
}

async function compare(route: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Answer> {
  const label = `${init.method ?? "GET"} ${route}`;
  const direct = await call(route, init, false);
  const next = await call(route, init, true);
  expectSameAnswer(direct, next, label);
  return direct;
}

const inTenDays = () => new Date(Date.now() + 10 * 86_400_000).toISOString();
const send = (to: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    from: "Direct <direct@example.com>",
    to,
    subject: "Direct or not",
    bodyHtml: "<p>Hello</p>",
    ...extra,
  });

describe("the production door answers as Next.js's routing does", () => {
  it("sends, under /v1 and /api/v1, and refuses a malformed or invalid body with the same 4xx", async () => {
    for (const base of ["/v1", "/api/v1"]) {
      const sent = await compare(`${base}/email_messages`, {
        method: "POST",
        headers: json,
        body: send("reader@example.org"),
      });
      expect(sent.status).toBe(201);
      await compare(`${base}/email_messages`, { method: "POST", headers: json, body: '{"from":' });
      await compare(`${base}/email_messages`, { method: "POST", headers: json, body: send("not an address") });
      await compare(`${base}/email_messages`, {
        method: "POST",
        headers: { authorization: auth() },
        body: "plain text",
      });
    }
  }, 60_000);

  it("gets by id, lists with filters and pages, with the same bodies", async () => {
    const scheduled = await call(
      "/v1/email_messages",
      { method: "POST", headers: json, body: send("listed@example.org", { scheduledAt: inTenDays() }) },
      false,
    );
    const id = JSON.parse(scheduled.body).data.id as string;
    for (const base of ["/v1", "/api/v1"]) {
      expect((await compare(`${base}/email_messages/${id}`)).status).toBe(200);
      await compare(`${base}/email_messages/${id}/events`);
      await compare(`${base}/email_messages/em_0000000000000000`);
      await compare(`${base}/email_messages?limit=5&scheduled=true&to=listed%40example.org`);
      await compare(`${base}/email_messages?limit=1&scheduled=true`);
      await compare(`${base}/email_messages?status=bogus`);
      await compare(`${base}/email_messages?limit=50`, {
        headers: { authorization: auth("key_DIRECT0000000000:wrong-secret-wrong-secret-wrong-secret") },
      });
      await compare(`${base}/email_messages?limit=50`, { headers: {} });
    }
  }, 60_000);

  it("decodes path params as Next.js does, and answers unknown paths and other methods alike", async () => {
    for (const base of ["/v1", "/api/v1"]) {
      for (const id of ["a%2Fb", "a%25b", "%C3%A9t%C3%A9", "a+b", "a;b", "a%00b", "%20x"])
        await compare(`${base}/email_messages/${id}`);
      await compare(`${base}/suppressions/someone%40example.org`, { method: "DELETE", headers: json });
      for (const unknown of [
        "/no-such-resource",
        "/email%5Fmessages",
        "/templates/validate/more",
        "/email_messages/x/y/z",
      ]) {
        for (const method of ["GET", "POST", "DELETE"]) {
          const answer = await compare(`${base}${unknown}`, {
            method,
            headers: json,
            body: method === "POST" ? "{}" : undefined,
          });
          expect(answer.status, `${method} ${base}${unknown}`).toBe(404);
        }
      }
      const wrongMethod = await compare(`${base}/email_messages`, { method: "PUT", headers: json, body: "{}" });
      expect(wrongMethod.status).toBe(405);
      await compare(`${base}/templates/validate`, { method: "GET", headers: json });
      await compare(`${base}/openapi.json`);
    }
  }, 60_000);

  it("sees the client's address as Next.js does (X-Forwarded-For filled in), for the IP allow list", async () => {
    for (const allowedIps of [["203.0.113.7/32"], ["127.0.0.1/32", "::1/128", "::ffff:127.0.0.1/128"]]) {
      const made = await call(
        "/v1/api_keys",
        { method: "POST", headers: json, body: JSON.stringify({ name: `ips ${allowedIps[0]}`, allowedIps }) },
        false,
      );
      const { id, secret } = JSON.parse(made.body).data as { id: string; secret: string };
      const answer = await compare("/v1/email_messages?limit=1", {
        headers: { authorization: auth(`${id}:${secret}`) },
      });
      expect(answer.status, allowedIps.join()).toBe(allowedIps[0] === "203.0.113.7/32" ? 403 : 200);
      await compare("/v1/email_messages?limit=1", {
        headers: { authorization: auth(`${id}:${secret}`), "x-forwarded-for": "203.0.113.7" },
      });
    }
  }, 60_000);

  it("answers HEAD and OPTIONS from the route table, and leaves paths Next.js normalises to Next.js", async () => {
    const head = await compare("/v1/email_messages?limit=1", { method: "HEAD", headers: json });
    expect([head.status, head.body]).toEqual([200, ""]);
    const options = await compare("/api/v1/email_messages", { method: "OPTIONS" });
    expect([options.status, options.headers.allow]).toEqual([204, "GET, POST, HEAD, OPTIONS"]);
    // Next.js redirects a trailing slash (fetch removes a dot segment before sending).
    for (const route of ["/v1/email_messages/", "/v1/x/./email_messages/"]) {
      const answer = await call(route, {}, false);
      expect(answer.status, route).toBe(308);
      expect(answer.headers.location, route).toMatch(/email_messages$/);
    }
  }, 60_000);

  it("takes the provider webhooks through the route table too", async () => {
    // This server has no SES topics configured: the webhook says so, the same through either door.
    const refused = await compare("/api/provider-events/ses", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "not an SNS message",
    });
    expect(JSON.parse(refused.body).error.code).toMatch(/^[A-Z_]+$/);
    const wrongMethod = await compare("/api/provider-events/resend", { method: "GET", headers: {} });
    expect([wrongMethod.status, wrongMethod.headers.allow]).toEqual([405, "POST"]);
  }, 60_000);
});
