import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/foundation/errors";
import { assertSafeJson, assertSafeParams, MAX_BODY_DEPTH } from "./input-guard";

function refusal(run: () => void): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("not refused");
}

const nestedArrays = (depth: number) => JSON.parse("[".repeat(depth) + "]".repeat(depth));

describe("assertSafeJson", () => {
  it("accepts ordinary bodies, and nesting up to the cap", () => {
    expect(() => assertSafeJson({ a: [1, "two", null, { b: true }], c: "ü\u0001" })).not.toThrow();
    expect(() => assertSafeJson(nestedArrays(MAX_BODY_DEPTH + 1))).not.toThrow(); // the top plus 64 below it
    expect(() => assertSafeJson("plain")).not.toThrow();
  });

  it("names the first NUL in document order, in values and in keys, never echoing the NUL", () => {
    const body = { a: { b: ["ok", "x\u0000"] }, z: "\u0000" };
    expect(refusal(() => assertSafeJson(body))).toMatchObject({
      code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      param: "a.b[1]",
    });
    const key = refusal(() => assertSafeJson({ list: [{ "k\u0000": 1 }] }));
    expect(key.param).toBe("list[0].k\\u0000");
    expect(key.message).toBe(
      "Invalid list[0].k\\u0000: the key contains a NUL character (\\u0000), which is never accepted.",
    );
    expect(refusal(() => assertSafeJson("\u0000")).param).toBe("body");
  });

  it("refuses nesting past the cap without overflowing itself, even a million levels deep", () => {
    const error = refusal(() => assertSafeJson({ metadata: nestedArrays(1_000_000) }));
    // metadata is level 1; the first array below level 64 is the one named.
    expect(error.param).toBe("metadata" + "[0]".repeat(MAX_BODY_DEPTH));
    expect(error.message).toBe(
      `Invalid metadata: the request body is nested deeper than ${MAX_BODY_DEPTH} levels; flatten it.`,
    );
  });
});

describe("assertSafeParams", () => {
  it("refuses NUL in a route parameter or a query parameter's name or value", () => {
    expect(() => assertSafeParams({ id: "em_1" }, new URLSearchParams("limit=5&to=a@b.c"))).not.toThrow();
    expect(refusal(() => assertSafeParams({ id: "em_\u0000" }, new URLSearchParams())).param).toBe("id");
    expect(refusal(() => assertSafeParams({ path: ["a", "\u0000"] }, new URLSearchParams())).param).toBe("path");
    expect(refusal(() => assertSafeParams({}, new URLSearchParams("cursor.before=%00"))).param).toBe("cursor.before");
    expect(refusal(() => assertSafeParams({}, new URLSearchParams("x%00=1"))).param).toBe("x\\u0000");
  });
});
