import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { matchApiRoute, readApiRouteTable } from "./api-route-table.mjs";

/** A build's app-paths-manifest with the route shapes app/api/v1 has (static, [param], nested params, [...catchAll]). */
const root = fs.mkdtempSync(path.join(os.tmpdir(), "api-route-table-"));
const PAGES = [
  "/api/v1/[...path]",
  "/api/v1/email_messages",
  "/api/v1/email_messages/[id]",
  "/api/v1/email_messages/[id]/events",
  "/api/v1/templates/[id]",
  "/api/v1/templates/validate",
  "/api/v1/templates/[id]/versions/[version]/restore",
  "/api/v1/optional/[[...rest]]",
  "/api/v1/(internal)/grouped",
  "/api/health/live",
  "/(dashboard)/emails/page",
];
fs.mkdirSync(path.join(root, ".next", "server"), { recursive: true });
fs.writeFileSync(
  path.join(root, ".next", "server", "app-paths-manifest.json"),
  JSON.stringify(Object.fromEntries(PAGES.map((page) => [`${page}/route`, `app${page}/route.js`]))),
);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const table = readApiRouteTable(root);
const routeOf = (pathname: string) => {
  const match = matchApiRoute(table, pathname);
  return match && { page: path.relative(path.join(root, ".next", "server", "app"), path.dirname(match.file)), params: match.params };
};

describe("the API route table read from the build", () => {
  it("matches static routes, params and the catch-all under both base paths", () => {
    expect(routeOf("/api/v1/email_messages")).toEqual({ page: "api/v1/email_messages", params: {} });
    expect(routeOf("/v1/email_messages/em_1")).toEqual({ page: "api/v1/email_messages/[id]", params: { id: "em_1" } });
    expect(routeOf("/v1/email_messages/em_1/events")).toEqual({ page: "api/v1/email_messages/[id]/events", params: { id: "em_1" } });
    expect(routeOf("/api/v1/templates/t1/versions/3/restore")).toEqual({ page: "api/v1/templates/[id]/versions/[version]/restore", params: { id: "t1", version: "3" } });
    expect(routeOf("/v1/grouped")?.page).toBe("api/v1/(internal)/grouped");
    expect(routeOf("/v1/no/such/path")).toEqual({ page: "api/v1/[...path]", params: { path: ["no", "such", "path"] } });
  });

  it("prefers a static name, and backtracks to a param or the catch-all when the rest does not fit", () => {
    expect(routeOf("/v1/templates/validate")?.page).toBe("api/v1/templates/validate");
    expect(routeOf("/v1/templates/other")).toEqual({ page: "api/v1/templates/[id]", params: { id: "other" } });
    expect(routeOf("/v1/templates/validate/versions/2/restore")).toEqual({ page: "api/v1/templates/[id]/versions/[version]/restore", params: { id: "validate", version: "2" } });
    expect(routeOf("/v1/email_messages/em_1/nope")).toEqual({ page: "api/v1/[...path]", params: { path: ["email_messages", "em_1", "nope"] } });
  });

  it("decodes param values as Next.js does, and compares static names undecoded", () => {
    expect(routeOf("/v1/email_messages/a%2Fb")?.params).toEqual({ id: "a/b" });
    expect(routeOf("/v1/email_messages/%C3%A9%25")?.params).toEqual({ id: "é%" });
    expect(routeOf("/v1/email_messages/a+b;c")?.params).toEqual({ id: "a+b;c" });
    expect(routeOf("/v1/email%5Fmessages")).toEqual({ page: "api/v1/[...path]", params: { path: ["email_messages"] } });
    expect(routeOf("/v1/x/%C3%A9")?.params).toEqual({ path: ["x", "é"] });
  });

  it("leaves to Next.js what it normalises first, what is not the API, and routes it cannot mirror", () => {
    for (const pathname of [
      "/v1/email_messages/",
      "/v1//email_messages",
      "/v1/email_messages/./x",
      "/v1/email_messages/%2e%2E",
      "/v1/email_messages/a\\b",
      "/v1/email_messages/a|b",
      "/v1/email_messages/%zz",
      "/v1",
      "/api/v1",
      "/V1/email_messages",
      "/api/health/live",
      "/emails",
      "/api/v1/optional/x",
    ]) {
      expect(routeOf(pathname), pathname).toBeNull();
    }
  });
});
