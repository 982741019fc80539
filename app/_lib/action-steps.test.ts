import { describe, expect, it } from "vitest";
import { z } from "zod";
import { steps } from "./action-steps";

// The API's edge rule holds for forms too: a NUL would reach PostgreSQL and become a 500 page.
describe("actions refuse hostile input before the use case runs", () => {
  it("a NUL in any field is a failure naming it, and the use case never runs", async () => {
    let ran = false;
    const run = async () => {
      ran = true;
      return {};
    };
    const schema = z.object({ name: z.string(), tags: z.array(z.string()) });
    const state = await steps(undefined, { schema, input: { name: "ok", tags: ["a", "b\u0000"] }, run });
    expect(state).toMatchObject({ ok: false, field: "tags[1]" });
    expect(ran).toBe(false);
    const unparsed = await steps(undefined, { input: { email: "\u0000" }, run });
    expect(unparsed).toMatchObject({ ok: false, field: "email" });
    expect(ran).toBe(false);
    expect(await steps(undefined, { schema, input: { name: "ok", tags: [] }, run })).toEqual({ ok: true });
  });
});
