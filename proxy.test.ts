import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { config, proxy } from "./proxy";

// A pure function of the request: the built server runs the same function before routing.
const call = (path: string, cookie?: string) =>
  proxy(new NextRequest(`http://localhost:3000${path}`, { headers: cookie ? { cookie } : {} }));

describe("proxy: undecodable API paths", () => {
  it("answers a JSON 400 envelope for every id route and both base paths, before Next.js decodes the params", async () => {
    const paths = [
      "/api/v1/email_messages/%C0%AE%C0%AE",
      "/api/v1/email_messages/em_%zz",
      "/api/v1/email_messages/%ED%A0%80/events",
      "/api/v1/templates/%E2%80/raw",
      "/api/v1/templates/%FF%FE/render",
      "/api/v1/templates/%FF/preview",
      "/api/v1/batches/%zz",
      "/api/v1/batches/%zz/email_messages",
      "/api/v1/workflow_runs/%C0%AE",
      "/v1/email_messages/%C0%AE%C0%AE",
      "/api/v1/%zz",
    ];
    for (const path of paths) {
      const res = call(path);
      expect(res.status, path).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      const body = await res.json();
      expect(body.error).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", param: "path" });
      expect(body.error.message).toMatch(/is not valid percent-encoded UTF-8/);
    }
  });

  it("lets every decodable API path through to its route, signed in or not", () => {
    for (const path of ["/api/v1/email_messages/em_1", "/v1/email_messages", "/api/v1/email_messages/%00", "/api/v1"]) {
      const res = call(path);
      expect(res.headers.get("x-middleware-next"), path).toBe("1");
    }
  });

  it("is not matched for the API, tracking, unsubscribe or invitation paths (the production server checks those, server/http-server.mjs)", () => {
    const [pattern] = config.matcher;
    const matched = (path: string) => new RegExp(`^${pattern.replace("/((?!", "/(?!").replace(").*)", ").*")}$`).test(path);
    for (const path of ["/api/v1/email_messages", "/v1/email_messages", "/api/auth/session", "/t/o/tok", "/u/tok", "/invite/tok"]) expect(matched(path), path).toBe(false);
    expect(matched("/emails/em_1")).toBe(true);
  });

  it("answers a JSON 400 envelope for an undecodable path anywhere under /api when it runs (next dev)", async () => {
    for (const path of ["/api/templates/%E2%80", "/api/uploads/%C0%AE"]) {
      const res = call(path);
      expect(res.status, path).toBe(400);
      expect((await res.json()).error).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", param: "path" });
    }
  });
});

describe("proxy: dashboard pages (unchanged)", () => {
  it("sends signed-out browsers to /login and lets a session through", () => {
    const out = call("/emails");
    expect(out.status).toBe(307);
    expect(out.headers.get("location")).toBe("http://localhost:3000/login");
    expect(call("/emails", "authjs.session-token=abc").headers.get("x-middleware-next")).toBe("1");
  });

  it("answers an undecodable dashboard path with a plain 400 page, signed in or not", async () => {
    for (const [path, cookie] of [
      ["/emails/%zz", undefined],
      ["/emails/%C0%AE", "authjs.session-token=abc"],
      ["/templates/%E2%80/versions", "authjs.session-token=abc"],
    ] as const) {
      const res = call(path, cookie);
      expect(res.status, path).toBe(400);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(await res.text()).toContain("not valid percent-encoded UTF-8");
    }
  });
});
