import { describe, expect, it } from "vitest";
import { isId, newId } from "./ids";

describe("ids", () => {
  it("are a prefix and 16 base62 characters", () => {
    const id = newId("message");
    expect(id).toMatch(/^em_[0-9A-Za-z]{16}$/);
    expect(isId("message", id)).toBe(true);
    expect(isId("message", "em_short")).toBe(false);
  });

  it("sort by creation time, and stay ordered within one millisecond", () => {
    const at = new Date("2026-01-01T00:00:00.000Z");
    const sameMs = Array.from({ length: 200 }, () => newId("event", at));
    expect([...sameMs].sort()).toEqual(sameMs);
    expect(new Set(sameMs).size).toBe(200);
    const later = newId("event", new Date("2026-01-01T00:00:00.001Z"));
    expect(later > sameMs[sameMs.length - 1]).toBe(true);
  });

  it("carry over z within one millisecond", () => {
    const at = new Date("2026-01-02T00:00:00.000Z");
    const ids = Array.from({ length: 62 * 62 + 5 }, () => newId("event", at));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const tails = ids.map((id) => id.slice(-2));
    expect(tails.some((tail, index) => index > 0 && tail === "00" && ids[index - 1].endsWith("zz"))).toBe(true);
  });
});
