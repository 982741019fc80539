import { describe, expect, it } from "vitest";
import { undecodableSegment } from "./undecodable-path";

describe("undecodableSegment", () => {
  it("names the first segment that is not percent-encoded UTF-8", () => {
    for (const bad of ["%C0%AE%C0%AE", "em_%zz", "%E2%80", "%ED%A0%80", "%FF%FE", "%", "a%2"]) {
      expect(undecodableSegment(`/api/v1/templates/${bad}/raw`), bad).toBe(bad);
    }
    expect(undecodableSegment("/v1/%zz/%FF")).toBe("%zz");
  });

  it("passes paths whose segments all decode, NUL and encoded slashes included (the handlers judge those)", () => {
    for (const good of [
      "/api/v1/email_messages",
      "/api/v1/email_messages/em_1/events",
      "/v1/x/%00",
      "/v1/%E2%82%AC",
      "/v1/a%2Fb",
      "/",
    ]) {
      expect(undecodableSegment(good), good).toBeNull();
    }
  });
});
