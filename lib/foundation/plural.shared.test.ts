import { describe, expect, it } from "vitest";
import { plural, pluralWord } from "./plural.shared";

describe("plural", () => {
  it("uses the singular for exactly one, the plural for everything else", () => {
    expect(plural(1, "day")).toBe("1 day");
    expect(plural(2, "day")).toBe("2 days");
    expect(plural(0, "message")).toBe("0 messages");
    expect(plural(1.5, "hour")).toBe("1.5 hours");
    expect(pluralWord(1, "message is", "messages are")).toBe("message is");
    expect(pluralWord(3, "message is", "messages are")).toBe("messages are");
  });
});
