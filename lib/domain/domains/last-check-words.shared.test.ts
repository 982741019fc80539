import { describe, expect, it } from "vitest";
import { lastCheckWords } from "./last-check-words.shared";

const checked = new Date("2026-11-28T12:00:00Z");

describe("lastCheckWords", () => {
  it("says a domain never checked was not checked", () => {
    expect(lastCheckWords({ lastCheckedAt: null, lastCheckError: null })).toBe("Not checked yet.");
  });

  it("says a clean check passed", () => {
    expect(lastCheckWords({ lastCheckedAt: checked, lastCheckError: null })).toBe("Passed: every record was found.");
  });

  it("says a check that missed a required record failed, naming it", () => {
    expect(lastCheckWords({ lastCheckedAt: checked, lastCheckError: "SPF missing; DMARC missing (recommended)" })).toBe(
      "Last check failed: SPF missing; DMARC missing (recommended).",
    );
  });

  it("says a check missing only recommended records passed", () => {
    expect(lastCheckWords({ lastCheckedAt: checked, lastCheckError: "DMARC missing (recommended)" })).toBe(
      "Passed; still recommended: DMARC missing (recommended).",
    );
  });
});
