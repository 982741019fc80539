import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { config, proxy } from "./proxy";

const call = (path: string, cookie?: string) =>
  proxy(new NextRequest(`http://localhost:3000${path}`, { headers: cookie ? { cookie } : {} }));

describe("proxy: where it runs", () => {
  it("is not matched for the API, provider webhooks, tracking, unsubscribe or invitation paths (the API routes itself)", () => {
    const [pattern] = config.matcher;
    const matched = (path: string) =>
      new RegExp(`^${pattern.replace("/((?!", "/(?!").replace(").*)", ").*")}$`).test(path);
    for (const path of [
      "/api/v1/email_messages",
      "/v1/email_messages",
      "/api/provider-events/ses",
      "/api/auth/session",
      "/t/o/tok",
      "/u/tok",
      "/invite/tok",
    ]) {
      expect(matched(path), path).toBe(false);
    }
    expect(matched("/emails/em_1")).toBe(true);
  });
});

describe("proxy: dashboard pages", () => {
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
