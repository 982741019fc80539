import { describe, expect, it } from "vitest";
import { mergeSpfRecord, spfAdditions } from "./merge-spf.shared";

describe("mergeSpfRecord", () => {
  it("adds our mechanisms to the existing record, before its all term, keeping its qualifier", () => {
    expect(mergeSpfRecord("v=spf1 include:_spf.google.com ~all", "v=spf1 include:amazonses.com ~all")).toBe(
      "v=spf1 include:_spf.google.com include:amazonses.com ~all",
    );
    expect(mergeSpfRecord("v=spf1 mx -all", "v=spf1 ip4:192.0.2.1 ~all")).toBe("v=spf1 mx ip4:192.0.2.1 -all");
  });

  it("adds nothing twice, and appends when the existing record has no all term", () => {
    expect(mergeSpfRecord("v=spf1 include:amazonses.com ~all", "v=spf1 include:amazonses.com ~all")).toBe(
      "v=spf1 include:amazonses.com ~all",
    );
    expect(mergeSpfRecord("v=spf1 mx", "v=spf1 include:amazonses.com ~all")).toBe("v=spf1 mx include:amazonses.com");
    expect(spfAdditions("v=spf1 ~all")).toEqual([]);
    expect(spfAdditions("v=spf1 include:amazonses.com ~all")).toEqual(["include:amazonses.com"]);
  });
});
