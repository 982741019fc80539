import { describe, expect, it } from "vitest";
import { waitFor } from "./wait-for";

describe("waitFor", () => {
  it("returns the condition's first truthy value", async () => {
    let calls = 0;
    const value = await waitFor(() => (++calls >= 3 ? { calls } : null), { what: "the third call", every: 1 });
    expect(value).toEqual({ calls: 3 });
  });

  it("fails with what was awaited when the timeout passes", async () => {
    await expect(
      waitFor(async () => false, { what: "a condition that never holds", timeout: 50, every: 5 }),
    ).rejects.toThrow("timed out after 50 ms waiting for a condition that never holds");
  });

  it("fails at once when the condition throws", async () => {
    let calls = 0;
    await expect(
      waitFor(
        () => {
          calls++;
          throw new Error("broken");
        },
        { what: "anything" },
      ),
    ).rejects.toThrow("broken");
    expect(calls).toBe(1);
  });
});
