import { describe, expect, it } from "vitest";
import { isReservedDomainName, isTestSenderAddress, TEST_SENDER } from "./test-sender.shared";

describe("the test sender's domain", () => {
  it("is postwerk.test itself, in any case, not its simulator subdomain nor a look-alike", () => {
    expect(TEST_SENDER).toBe("Postwerk <test@postwerk.test>");
    expect(isTestSenderAddress("test@postwerk.test")).toBe(true);
    expect(isTestSenderAddress("Anyone@POSTWERK.Test")).toBe(true);
    expect(isTestSenderAddress("delivered@simulator.postwerk.test")).toBe(false);
    expect(isTestSenderAddress("test@notpostwerk.test")).toBe(false);
    expect(isTestSenderAddress("test@postwerk.test.example.com")).toBe(false);
  });

  it("reserves postwerk.test and every name under it", () => {
    expect(["postwerk.test", "Mail.Postwerk.Test", "simulator.postwerk.test"].map(isReservedDomainName)).toEqual([
      true,
      true,
      true,
    ]);
    expect(["notpostwerk.test", "postwerk.testing", "example.com"].map(isReservedDomainName)).toEqual([
      false,
      false,
      false,
    ]);
  });
});
