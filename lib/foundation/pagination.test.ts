import { describe, expect, it } from "vitest";
import { parseCursorPage } from "./pagination";

const parse = (query: string) => parseCursorPage(new URLSearchParams(query), { maxLimit: 50 });

describe("parseCursorPage", () => {
  it("reads dotted and bracket names", () => {
    expect(parse("cursor.after=em_1&limit=10&createdAt.gte=2026-01-01T00:00:00.000Z")).toEqual({
      limit: 10,
      cursor: { direction: "after", id: "em_1" },
      createdAt: { gte: new Date("2026-01-01T00:00:00.000Z") },
    });
    expect(parse("cursor[before]=em_2&createdAt[lt]=2026-01-02").cursor).toEqual({ direction: "before", id: "em_2" });
    expect(parse("").limit).toBe(50);
  });

  it("names the parameter at fault", () => {
    expect(() => parse("limit=0")).toThrow(expect.objectContaining({ param: "limit" }));
    expect(() => parse("limit=51")).toThrow(expect.objectContaining({ param: "limit" }));
    expect(() => parse("createdAt.gt=yesterday")).toThrow(expect.objectContaining({ param: "createdAt.gt" }));
    expect(() => parse("cursor.after=a&cursor.before=b")).toThrow(expect.objectContaining({ param: "cursor.before" }));
  });
});
