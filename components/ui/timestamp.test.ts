import { describe, expect, it } from "vitest";
import { formatMinute, formatTimestamp } from "./timestamp";

describe("timestamps", () => {
  it("always say their zone, to the second or (in the inbox list) to the minute", () => {
    const date = new Date("2026-01-02T03:04:05.678Z");
    expect(formatTimestamp(date)).toBe("2026-01-02 03:04:05 UTC");
    expect(formatMinute(date)).toBe("2026-01-02 03:04 UTC");
  });
});
