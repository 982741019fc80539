import type { Resolver } from "node:dns/promises";
import { describe, expect, it } from "vitest";
import { checkMx, describeMxCheck, mxStateFromLastCheck } from "./mx-check";

/** A resolver answering one MX question as told (the DNS round trip itself is tested against the test DNS server). */
const answering = (answer: () => Promise<Array<{ priority: number; exchange: string }>>) =>
  ({ resolveMx: answer }) as unknown as Resolver;
const failing = (code: string) => answering(() => Promise.reject(Object.assign(new Error(code), { code })));

describe("checkMx", () => {
  it("finds our host among others (any case, trailing dot), in preference order", async () => {
    const check = await checkMx(
      answering(async () => [
        { priority: 20, exchange: "backup.example.org" },
        { priority: 5, exchange: "MX.Postwerk.TEST." },
      ]),
      "in.example.org",
      "mx.postwerk.test",
    );
    expect(check).toEqual({ outcome: "found", detail: "mx.postwerk.test, backup.example.org" });
    expect(describeMxCheck(check)).toBeNull();
  });

  it("tells missing, elsewhere and a failed lookup apart; each reads back from what is stored", async () => {
    const cases = [
      [answering(async () => []), "missing", "MX missing"],
      [failing("ENODATA"), "missing", "MX missing"],
      [failing("ENOTFOUND"), "missing", "MX missing"],
      [
        answering(async () => [{ priority: 10, exchange: "aspmx.example.com" }]),
        "wrong value",
        "MX wrong value: points at aspmx.example.com, not mx.postwerk.test",
      ],
      [failing("ETIMEOUT"), "lookup failed", "MX lookup failed: ETIMEOUT looking up in.example.org"],
    ] as const;
    for (const [resolver, outcome, stored] of cases) {
      const check = await checkMx(resolver, "in.example.org", "mx.postwerk.test");
      expect(check.outcome).toBe(outcome);
      expect(describeMxCheck(check)).toBe(stored);
      expect(mxStateFromLastCheck({ lastCheckedAt: new Date(), lastCheckError: stored })).toBe(outcome);
    }
    expect(mxStateFromLastCheck({ lastCheckedAt: null, lastCheckError: null })).toBe("unchecked");
    expect(mxStateFromLastCheck({ lastCheckedAt: new Date(), lastCheckError: null })).toBe("found");
  });
});
