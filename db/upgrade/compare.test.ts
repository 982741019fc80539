import { describe, expect, it } from "vitest";
import { answerDifferences, missingRows } from "./compare";

describe("missingRows", () => {
  const before = {
    things: [
      { id: "a", n: 1 },
      { id: "b", n: 2 },
      { id: "b", n: 2 },
    ],
    empty: [],
  };

  it("finds nothing missing when every row holds its values, whatever columns and rows were added", () => {
    const after = {
      things: [
        { id: "b", n: 2, added: true },
        { id: "a", n: 1, added: null },
        { id: "b", n: 2 },
        { id: "c", n: 3 },
      ],
    };
    expect(missingRows(before, { ...after, empty: [] })).toEqual([]);
  });

  it("names a changed row with its row after, a lost one (a duplicate too) with null, and a dropped column", () => {
    expect(
      missingRows(before, {
        things: [
          { id: "a", n: 5 },
          { id: "b", n: 2 },
        ],
      }),
    ).toEqual([
      { table: "things", before: { id: "a", n: 1 }, after: { id: "a", n: 5 } },
      { table: "things", before: { id: "b", n: 2 }, after: { id: "b", n: 2 } },
    ]);
    expect(missingRows({ t: [{ id: "x", gone: 1 }] }, { t: [{ id: "x" }] })).toEqual([
      { table: "t", before: { id: "x", gone: 1 }, after: { id: "x" } },
    ]);
    expect(missingRows({ t: [{ id: "x" }] }, {})).toEqual([{ table: "t", before: { id: "x" }, after: null }]);
  });
});

describe("answerDifferences", () => {
  const before = { data: [{ id: "a", status: "SENT", tags: ["x"] }], meta: { count: 1 } };

  it("accepts an answer that holds the old one, with fields added", () => {
    const now = { data: [{ id: "a", status: "SENT", tags: ["x"], extra: 1 }], meta: { count: 1, more: false } };
    expect(answerDifferences(before, now)).toEqual([]);
  });

  it("names each changed, missing or retyped field, and a list of another length", () => {
    expect(answerDifferences(before, { data: [{ id: "a", status: "FAILED", tags: "x" }], meta: {} })).toEqual([
      'data[0].status: "SENT", now "FAILED"',
      'data[0].tags: was an array, now "x"',
      "meta.count: gone",
    ]);
    expect(answerDifferences(before, { data: [], meta: { count: 1 } })).toEqual(["data: 1 items, now 0"]);
    expect(answerDifferences({ a: { b: 1 } }, { a: null })).toEqual(["a: was an object, now null"]);
  });
});
