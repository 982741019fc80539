import { describe, expect, it } from "vitest";
import { idTime, isId, newId, randomBase62 } from "./ids";

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

  it("draw random characters evenly over the whole alphabet, none repeated across the pool's refills", () => {
    const values = Array.from({ length: 2000 }, () => randomBase62(40)); // ~80 KB of draws: many refills
    expect(new Set(values).size).toBe(values.length);
    const counts = new Map<string, number>();
    for (const character of values.join("")) counts.set(character, (counts.get(character) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 80,000 draws over 62 characters: ~1,290 each; a skewed draw (say, `byte % 62` without
    // rejection) would put the first characters ~1.7 % higher, well inside this band, so the band
    // checks only that no character is missing or dominant.
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(1000);
      expect(count).toBeLessThan(1600);
    }
  });

  it("reads back the creation time an id carries (retention's 410), and null for what is no id", () => {
    const at = new Date("2026-03-04T05:06:07.089Z");
    expect(idTime(newId("message", at))).toEqual(at);
    expect(idTime(newId("inboundThread", at))).toEqual(at);
    expect(idTime("em_short")).toBeNull();
    expect(idTime("not an id at all")).toBeNull();
  });
});
