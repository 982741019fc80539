import { describe, expect, it } from "vitest";
import { createRouter, type RouteHandler, type RouteModule } from "./router";

/** A handler that answers with what it was given, so a test sees which route and params it reached. */
const echo =
  (name: string): RouteHandler =>
  async (request, { params }) =>
    Response.json({ name, method: request.method, params: await (params as Promise<unknown>) });

const notFound = async (request: Request) =>
  Response.json({ notFound: new URL(request.url).pathname }, { status: 404 });

function router(routes: Array<[string, RouteModule]>) {
  return createRouter({ bases: ["/api/v1", "/v1"], routes, notFound });
}

const call = async (r: ReturnType<typeof router>, method: string, path: string) => {
  const response = await r(new Request(`http://localhost${path}`, { method }));
  const text = await response.text();
  return { status: response.status, allow: response.headers.get("allow"), body: text ? JSON.parse(text) : null };
};

describe("the API router", () => {
  const api = router([
    ["/templates/:id", { GET: echo("template"), PATCH: echo("patch template") }],
    ["/templates/validate", { POST: echo("validate") }],
    ["/templates/:id/versions/:version", { GET: echo("version") }],
    ["/suppressions/:email", { DELETE: echo("unsuppress") }],
  ]);

  it("serves each pattern under both bases, with decoded params", async () => {
    for (const base of ["/api/v1", "/v1"]) {
      expect((await call(api, "GET", `${base}/templates/tpl_1/versions/3`)).body).toEqual({
        name: "version",
        method: "GET",
        params: { id: "tpl_1", version: "3" },
      });
    }
    const decoded = await call(api, "DELETE", "/v1/suppressions/ann%40example.org");
    expect(decoded.body.params).toEqual({ email: "ann@example.org" });
  });

  it("prefers a literal segment to a parameter, whatever the table's order", async () => {
    expect((await call(api, "POST", "/v1/templates/validate")).body.name).toBe("validate");
    expect((await call(api, "GET", "/v1/templates/tpl_1")).body.name).toBe("template");
  });

  it("answers another method with 405 and Allow, HEAD as GET without a body, OPTIONS with Allow", async () => {
    const wrong = await call(api, "POST", "/v1/templates/tpl_1");
    expect([wrong.status, wrong.allow, wrong.body.error.code]).toEqual([405, "GET, PATCH", "METHOD_NOT_ALLOWED"]);
    expect(wrong.body.error.message).toBe("This path accepts GET, PATCH only.");
    const head = await call(api, "HEAD", "/v1/templates/tpl_1");
    expect([head.status, head.body]).toEqual([200, null]);
    const options = await call(api, "OPTIONS", "/v1/templates/tpl_1");
    expect([options.status, options.allow]).toEqual([204, "GET, PATCH, HEAD, OPTIONS"]);
  });

  it("gives unknown paths, empty segments and paths outside its bases to notFound", async () => {
    for (const path of [
      "/v1/nope",
      "/v1/templates",
      "/v1/templates//versions/1",
      "/v1/templates/a/b",
      "/v2/templates/x",
    ]) {
      expect((await call(api, "GET", path)).status, path).toBe(404);
    }
    expect(api.owns("/api/v1/anything")).toBe(true);
    expect(api.owns("/api/v10")).toBe(false);
  });

  it("refuses an undecodable segment with the envelope's 400 naming path", async () => {
    const res = await call(api, "GET", "/v1/templates/%E2%80");
    expect([res.status, res.body.error.code, res.body.error.param]).toEqual([
      400,
      "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      "path",
    ]);
  });

  it("answers a handler that throws with the 500 envelope", async () => {
    const broken = router([["/boom", { GET: async () => Promise.reject(new Error("bug")) }]]);
    const res = await call(broken, "GET", "/v1/boom");
    expect([res.status, typeof res.body.error.code]).toEqual([500, "string"]);
  });

  it("refuses a table with two routes of one shape, or a module with no handler", () => {
    expect(() =>
      router([
        ["/a/:id", { GET: echo("a") }],
        ["/a/:key", { GET: echo("b") }],
      ]),
    ).toThrow(/same shape/);
    expect(() => router([["/a", {}]])).toThrow(/exports no handler/);
  });

  it("resolves which handler a request reaches (the tests' check of the table)", () => {
    const patch = echo("patch");
    const r = router([["/templates/:id", { PATCH: patch }]]);
    expect(r.resolve("PATCH", "/api/v1/templates/x")).toEqual({ handler: patch, params: { id: "x" } });
    expect(r.resolve("GET", "/api/v1/templates/x")?.handler).toBeUndefined();
    expect(r.resolve("GET", "/elsewhere")).toBeNull();
  });
});
