import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { log, setLogLevel, withLogFields } from "@/lib/foundation/log";
import { GET as listMessages } from "@/app/api/v1/email_messages/handlers";
import { routeTemplate } from "./request-observation";

describe("X-Request-Id", () => {
  afterEach(() => {
    setLogLevel("silent");
    vi.restoreAllMocks();
  });

  it("echoes a sane incoming id", async () => {
    const ws = await createTestWorkspace();
    const res = await callRoute(listMessages, "/api/v1/email_messages", {
      authorization: ws.authorization,
      headers: { "x-request-id": "lb-7f3a.2_x" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("lb-7f3a.2_x");
  });

  it("generates one when there is none, or when the incoming one is not sane; failures carry it too", async () => {
    const ws = await createTestWorkspace();
    const generated = await callRoute(listMessages, "/api/v1/email_messages", { authorization: ws.authorization });
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    for (const bad of ["a".repeat(129), "x y", "<script>", "a/b", 'a"b']) {
      const res = await callRoute(listMessages, "/api/v1/email_messages", {
        authorization: ws.authorization,
        headers: { "x-request-id": bad },
      });
      expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
    const unauthorized = await callRoute(listMessages, "/api/v1/email_messages", {
      headers: { "x-request-id": "abc" },
    });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("x-request-id")).toBe("abc");
  });

  it("is on every log line written while the request runs", async () => {
    setLogLevel("info");
    const lines: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    await withLogFields({ requestId: "req-1" }, async () => {
      await Promise.resolve();
      log.info("deep inside a use case", { messageId: "em_1" });
    });
    log.info("outside");
    const [inside, outside] = lines.map((line) => JSON.parse(line));
    expect(inside).toMatchObject({ message: "deep inside a use case", requestId: "req-1", messageId: "em_1" });
    expect(outside.requestId).toBeUndefined();
  });
});

describe("routeTemplate", () => {
  it("replaces parameter values with their names", () => {
    expect(routeTemplate("/api/v1/email_messages/em_1/events", { id: "em_1" })).toBe(
      "/api/v1/email_messages/:id/events",
    );
    expect(routeTemplate("/api/v1/batches/b%201", { id: "b 1" })).toBe("/api/v1/batches/:id");
    expect(routeTemplate("/api/v1/templates", {})).toBe("/api/v1/templates");
  });
});

describe("a static route without params", () => {
  it("answers when Next.js passes no params (a custom server, server/server.mjs, does so)", async () => {
    const ws = await createTestWorkspace();
    const request = new Request("http://localhost:3000/api/v1/email_messages", {
      headers: { authorization: ws.authorization },
    });
    const response = await listMessages(request, {} as Parameters<typeof listMessages>[1]);
    expect(response.status).toBe(200);
  });
});
