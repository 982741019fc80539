import { describe, expect, it } from "vitest";
import type { WorkflowStep } from "@/db/schema";
import { stepStates, stepsDone } from "./step-states.shared";

const steps: WorkflowStep[] = [
  { type: "sendEmail", templateId: "tpl_1", to: "{{ user.email }}" },
  { type: "wait", seconds: 3600 },
  { type: "sendEmail", templateId: "tpl_2", to: "{{ user.email }}" },
];
const states = (status: "RUNNING" | "COMPLETED" | "FAILED" | "SKIPPED", nextStep: number) =>
  stepStates({ status, nextStep, steps }).map((step) => step.state);

describe("stepStates", () => {
  it("shows a running run's finished, current and later steps", () => {
    expect(states("RUNNING", 0)).toEqual(["running", "pending", "pending"]);
    expect(states("RUNNING", 1)).toEqual(["done", "waiting", "pending"]);
    expect(stepsDone({ status: "RUNNING", nextStep: 1, steps })).toBe(1);
    // The wait step has run (next_step moved past it) and its successor is a delayed job: still waiting.
    expect(states("RUNNING", 2)).toEqual(["done", "waiting", "pending"]);
    expect(stepsDone({ status: "RUNNING", nextStep: 2, steps })).toBe(1);
  });

  it("marks the failing step (nextStep - 1) and the ones that never ran", () => {
    expect(states("FAILED", 1)).toEqual(["failed", "not run", "not run"]);
    expect(states("FAILED", 3)).toEqual(["done", "done", "failed"]);
  });

  it("a completed run has every step done; a skipped run has no steps", () => {
    expect(states("COMPLETED", 3)).toEqual(["done", "done", "done"]);
    expect(stepsDone({ status: "COMPLETED", nextStep: 3, steps })).toBe(3);
    expect(stepStates({ status: "SKIPPED", nextStep: 0, steps: [] })).toEqual([]);
  });

  it("summarizes each step", () => {
    expect(stepStates({ status: "RUNNING", nextStep: 0, steps }).map((step) => [step.kind, step.summary])).toEqual([
      ["sendEmail", "Send template tpl_1 to {{ user.email }}"],
      ["wait", "Wait 1 h"],
      ["sendEmail", "Send template tpl_2 to {{ user.email }}"],
    ]);
    expect(stepStates({ status: "RUNNING", nextStep: 0, steps }).map((step) => step.send)).toEqual([
      { templateId: "tpl_1", to: "{{ user.email }}" },
      null,
      { templateId: "tpl_2", to: "{{ user.email }}" },
    ]);
  });
});
