import { describe, expect, it } from "vitest";
import {
  assertSimulatorRecipients,
  hasSimulatorRecipient,
  SIMULATOR_ADDRESSES,
  simulatedOutcomeOf,
} from "./simulator.shared";

describe("simulator addresses", () => {
  it("reads the outcome from the local part, ignoring a +tag and case", () => {
    expect(simulatedOutcomeOf("bounced@simulator.postwerk.test")).toBe("bounced");
    expect(simulatedOutcomeOf("Soft-Bounced+run-42@Simulator.Postwerk.TEST")).toBe("soft-bounced");
    expect(simulatedOutcomeOf("bounce@simulator.postwerk.test")).toBe("unknown");
    expect(simulatedOutcomeOf("+x@simulator.postwerk.test")).toBe("unknown");
    expect(simulatedOutcomeOf("bounced@simulator.postwerk.test.example.org")).toBeNull();
    expect(simulatedOutcomeOf("bounced@example.org")).toBeNull();
    expect(SIMULATOR_ADDRESSES.map((entry) => simulatedOutcomeOf(entry.address))).toEqual(
      SIMULATOR_ADDRESSES.map((entry) => entry.outcome),
    );
  });

  it("finds a simulator recipient among stored entries, and only a real one", () => {
    expect(hasSimulatorRecipient(["Ada <ada@example.org>"], [], ['"Sim" <opened+1@simulator.postwerk.test>'])).toBe(
      true,
    );
    expect(hasSimulatorRecipient(["x@simulator.postwerk.test.example.org"], null, null)).toBe(false);
    expect(hasSimulatorRecipient(['"a@simulator.postwerk.test" <ada@example.org>'], [], [])).toBe(false);
  });

  it("refuses an unknown local part and a mix, naming the entry's field", () => {
    expect(() =>
      assertSimulatorRecipients([{ address: "clicked@simulator.postwerk.test", param: "to" }]),
    ).not.toThrow();
    expect(() => assertSimulatorRecipients([{ address: "ada@example.org", param: "to" }])).not.toThrow();
    expect(() => assertSimulatorRecipients([{ address: "click@simulator.postwerk.test", param: "to[0]" }])).toThrow(
      expect.objectContaining({ param: "to[0]" }),
    );
    expect(() =>
      assertSimulatorRecipients([
        { address: "ada@example.org", param: "to" },
        { address: "opened@simulator.postwerk.test", param: "cc" },
      ]),
    ).toThrow(
      expect.objectContaining({ param: "to", message: expect.stringContaining("may go only to simulator addresses") }),
    );
  });
});
