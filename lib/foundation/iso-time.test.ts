import { describe, expect, it } from "vitest";
import { isoTime } from "./iso-time";

describe("isoTime", () => {
  it("is toISOString's text for every millisecond field, day and month boundary, and a spread of years", () => {
    const fixed = [
      "1000-01-01T00:00:00.000Z",
      "1970-01-01T00:00:00.000Z",
      "1999-12-31T23:59:59.999Z",
      "2000-02-29T12:00:00.001Z",
      "2026-11-27T09:08:07.010Z",
      "2026-11-27T09:08:07.100Z",
      "9999-12-31T23:59:59.999Z",
    ];
    for (const text of fixed) expect(isoTime(new Date(text))).toBe(text);
    // A deterministic walk through ~3,000 years in odd steps: every field takes many values.
    let ms = Date.UTC(1000, 0, 1);
    while (ms < Date.UTC(9999, 11, 31)) {
      const date = new Date(ms);
      expect(isoTime(date)).toBe(date.toISOString());
      ms += 7_919_113_257_113; // ~251 years and an odd remainder of every unit
    }
    for (let step = 0; step < 5_000; step++) {
      const date = new Date(Date.UTC(2026, 0, 1) + step * 86_413_337);
      expect(isoTime(date)).toBe(date.toISOString());
    }
  });

  it("defers to toISOString outside four-digit years, and for an invalid date throws as it does", () => {
    for (const date of [
      new Date(Date.UTC(10000, 0, 1)),
      new Date(Date.UTC(999, 11, 31, 23, 59, 59, 999)),
      new Date(-62198755200000),
    ]) {
      expect(isoTime(date)).toBe(date.toISOString());
    }
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
