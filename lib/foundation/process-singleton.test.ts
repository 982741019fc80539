import { describe, expect, it, vi } from "vitest";
import { processSingleton } from "./process-singleton";

describe("processSingleton", () => {
  it("creates the value once and hands every caller the same one", () => {
    const create = vi.fn(() => ({ count: 0 }));
    const first = processSingleton("test.once", create);
    first.count++;
    expect(processSingleton("test.once", create)).toBe(first);
    expect(create).toHaveBeenCalledTimes(1);
    expect(processSingleton("test.other", () => ({ count: 0 }))).not.toBe(first);
  });

  it("is shared by a second copy of the module, as a second Next.js bundle would load it", async () => {
    const value = processSingleton("test.copies", () => ({}));
    vi.resetModules();
    const copy = await import("./process-singleton");
    expect(copy.processSingleton).not.toBe(processSingleton);
    expect(copy.processSingleton("test.copies", () => ({}))).toBe(value);
  });
});
