import { describe, expect, it } from "vitest";
import { deliverMessageJobSchema, parseJob, simulateOutcomeJobSchema, workflowStepJobSchema } from "./jobs";

describe("job payloads", () => {
  it("reads the payloads the service writes", () => {
    expect(parseJob("deliver-message", deliverMessageJobSchema, { workspaceId: "ws_1", messageId: "em_1" })).toEqual({
      workspaceId: "ws_1",
      messageId: "em_1",
    });
    expect(parseJob("workflow-step", workflowStepJobSchema, { workspaceId: "ws_1", runId: "wfr_1", step: 2 })).toEqual({
      workspaceId: "ws_1",
      runId: "wfr_1",
      step: 2,
    });
    const simulated = {
      workspaceId: "ws_1",
      messageId: "em_1",
      recipients: ["bounced@simulator.postwerk.test"],
      round: 1,
    };
    expect(parseJob("simulate-outcome", simulateOutcomeJobSchema, simulated)).toEqual(simulated);
  });

  it("refuses a payload written by another version, naming the queue and the field", () => {
    expect(() => parseJob("deliver-message", deliverMessageJobSchema, { workspaceId: "ws_1" })).toThrow(
      /deliver-message job has an unreadable payload \(messageId:/,
    );
    expect(() =>
      parseJob("workflow-step", workflowStepJobSchema, { workspaceId: "ws_1", runId: "wfr_1", step: -1 }),
    ).toThrow(/workflow-step job .*\(step:/);
    expect(() =>
      parseJob("simulate-outcome", simulateOutcomeJobSchema, {
        workspaceId: "ws_1",
        messageId: "em_1",
        recipients: [],
        round: 0,
      }),
    ).toThrow(/\(recipients:/);
  });
});
