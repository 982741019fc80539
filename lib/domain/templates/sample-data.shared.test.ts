import { describe, expect, it } from "vitest";
import { parseSampleData, sampleDataSkeleton } from "./sample-data.shared";

describe("parseSampleData", () => {
  it("accepts a JSON object", () => {
    expect(
      parseSampleData('{ "user": { "name": "Ada" }, "items": [1, 2.5e3, -0.1, true, null, "a\\n\\u00e9"] }'),
    ).toEqual({
      ok: true,
      value: { user: { name: "Ada" }, items: [1, 2500, -0.1, true, null, "a\né"] },
    });
  });

  it.each([
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, 'Expected "," or "}" after a property value'],
    ['{\n  "a": 1,\n}', 3, 1, "Expected a property name in double quotes"],
    ["{ 'a': 1 }", 1, 3, "Expected a property name in double quotes"],
    ["{ \"a\": 'x' }", 1, 8, "double quotes"],
    ['{ "a": [1, 2 }', 1, 14, 'Expected "," or "]" after an array element'],
    ['{ "a": "open }', 1, 8, "not closed"],
    ['{ "a": "bad \\q" }', 1, 13, 'Invalid escape "\\q"'],
    ['{ "a": 1 } x', 1, 12, "after the end of the data"],
    ['{ "a" 1 }', 1, 7, 'Expected ":"'],
    ["", 1, 1, "Expected a value"],
  ])("points at the first mistake in %j with its line and column", (text, line, column, message) => {
    const result = parseSampleData(text);
    expect(result).toMatchObject({ ok: false, line, column, message: expect.stringContaining(message) });
  });

  it("refuses JSON that is not an object, since variables are named", () => {
    expect(parseSampleData("  [1, 2]")).toMatchObject({
      ok: false,
      line: 1,
      column: 3,
      message: expect.stringContaining("must be a JSON object"),
    });
    expect(parseSampleData('"text"')).toMatchObject({ ok: false, message: expect.stringContaining("not a string") });
    expect(parseSampleData("null")).toMatchObject({ ok: false, message: expect.stringContaining("not null") });
  });
});

describe("sampleDataSkeleton", () => {
  it("lays out every variable path as an empty value to fill in", () => {
    expect(sampleDataSkeleton(["name", "user.name", "user.address.city", "items", "order.lines[0].sku"])).toEqual({
      name: "",
      user: { name: "", address: { city: "" } },
      items: "",
      order: { lines: { sku: "" } },
    });
  });
});
