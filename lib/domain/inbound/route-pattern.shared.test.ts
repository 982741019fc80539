import { describe, expect, it } from "vitest";
import { matchRoute, splitRecipient } from "./match-route";
import { parseRoutePattern } from "./route-pattern.shared";

describe("parseRoutePattern", () => {
  it("reads the three kinds, lower-cased, without the domain's trailing dot", () => {
    expect(parseRoutePattern(" Support@In.Example.COM. ")).toEqual({
      pattern: "support@in.example.com",
      kind: "exact",
      localPart: "support",
      domain: "in.example.com",
    });
    expect(parseRoutePattern("Support+{hash}@in.example.com")).toMatchObject({ kind: "plus", localPart: "support" });
    expect(parseRoutePattern("*@in.example.com")).toMatchObject({ kind: "catch_all", localPart: null });
    expect(parseRoutePattern("first.last+vip@in.example.com")).toMatchObject({ kind: "exact" });
  });

  it("says what is wrong with anything else", () => {
    for (const bad of [
      "support",
      "@in.example.com",
      "support@",
      "a b@x.test",
      "*x@x.test",
      "a+b+{hash}@x.test",
      ".a@x.test",
      "a..b@x.test",
      "{hash}@x.test",
      `${"a".repeat(65)}@x.test`,
    ])
      expect(typeof parseRoutePattern(bad), bad).toBe("string");
  });
});

describe("matchRoute", () => {
  const routes = [
    { id: "catch", kind: "catch_all" as const, localPart: null },
    { id: "plus", kind: "plus" as const, localPart: "support" },
    { id: "exact", kind: "exact" as const, localPart: "support" },
  ];

  it("exact, then plus (hash as sent), then catch-all, whatever the order routes come in", () => {
    expect(matchRoute(routes, "SUPPORT")).toEqual({ route: routes[2], mailboxHash: null });
    expect(matchRoute(routes, "Support+Order-7")).toEqual({ route: routes[1], mailboxHash: "Order-7" });
    expect(matchRoute(routes, "sales")).toEqual({ route: routes[0], mailboxHash: null });
    expect(matchRoute(routes.slice(1), "sales")).toBeNull();
    expect(matchRoute(routes.slice(1, 2), "support")).toBeNull(); // a plus route needs a +
    expect(matchRoute(routes.slice(1, 2), "+x")).toBeNull(); // nothing before the +
  });

  it("splits a recipient: brackets, case of the domain, trailing dot", () => {
    expect(splitRecipient(" <Ann+X@Example.ORG.> ")).toEqual({ local: "Ann+X", domain: "example.org" });
    for (const bad of ["", "ann", "@example.org", "ann@", "a b@example.org", "ann@exa mple.org"])
      expect(splitRecipient(bad), bad).toBeNull();
  });
});
