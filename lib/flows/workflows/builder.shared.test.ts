import { describe, expect, it } from "vitest";
import type { WorkflowStep } from "@/db/schema";
import {
  definitionFromDraft,
  describeParam,
  draftFromWorkflow,
  moveStep,
  newSendStep,
  splitWait,
  stepErrors,
  waitSeconds,
  waitUnitLabel,
  workflowErrors,
} from "./builder.shared";
import {
  addressVariables,
  missingSampleVariables,
  parseSampleVariables,
  variablesSkeleton,
  workflowVariables,
} from "./builder-variables.shared";
import { workflowDefinitionIssues } from "./schemas";

describe("waits", () => {
  it("shows seconds in the largest whole unit and turns amount × unit back into seconds", () => {
    expect(splitWait(86_400 * 3)).toEqual({ amount: "3", unit: "days" });
    expect(splitWait(7200)).toEqual({ amount: "2", unit: "hours" });
    expect(splitWait(90 * 60)).toEqual({ amount: "90", unit: "minutes" });
    expect(splitWait(45)).toEqual({ amount: "45", unit: "seconds" });
    expect(waitSeconds("1.5", "hours")).toBe(5400);
    expect(waitSeconds("2", "days")).toBe(172_800);
    expect(waitSeconds("", "minutes")).toBeNull();
    expect(waitSeconds("abc", "minutes")).toBeNull();
  });
});

describe("draft ↔ definition", () => {
  it("round-trips a stored workflow; unset optional fields and an empty key are left out, an empty `to` is kept", () => {
    const steps: WorkflowStep[] = [
      { type: "sendEmail", templateId: "tpl_a", to: "{{ user.email }}", cc: "boss@example.org", groupKey: "news" },
      { type: "wait", seconds: 3600 },
      {
        type: "sendEmail",
        templateId: "tpl_b",
        to: "x@example.org",
        from: "A <a@example.com>",
        replyTo: "r@example.com",
        bcc: "b@example.org",
      },
    ];
    const draft = draftFromWorkflow({ name: "Onboarding", key: "k", enabled: false, steps });
    expect(draft.steps[1]).toEqual({ uid: "step-1", type: "wait", amount: "1", unit: "hours" });
    expect(definitionFromDraft(draft)).toEqual({ name: "Onboarding", key: "k", enabled: false, steps });
    const bare = definitionFromDraft({
      name: "N",
      key: "  ",
      enabled: true,
      steps: [newSendStep("u1", "tpl_a"), { uid: "u2", type: "wait", amount: "", unit: "days" }],
    });
    expect(bare).toEqual({
      name: "N",
      enabled: true,
      steps: [
        { type: "sendEmail", templateId: "tpl_a", to: "" },
        { type: "wait", seconds: null },
      ],
    });
  });

  it("moves a step up or down, and not past either end", () => {
    expect(moveStep(["a", "b", "c"], 2, -1)).toEqual(["a", "c", "b"]);
    expect(moveStep(["a", "b", "c"], 0, 1)).toEqual(["b", "a", "c"]);
    const same = ["a", "b"];
    expect(moveStep(same, 0, -1)).toBe(same);
    expect(moveStep(same, 1, 1)).toBe(same);
  });
});

describe("variables", () => {
  it("collects address-field and template variables in order, ignoring Liquid that does not parse yet", () => {
    const first = { ...newSendStep("a", "tpl_a"), to: "{{ user.name }} <{{ user.email }}>", cc: "{{ broken" };
    const second = {
      ...newSendStep("b", "tpl_b"),
      to: "{{ user.email }}",
      replyTo: "help+{{ ticket.id }}@example.com",
    };
    expect(addressVariables(first)).toEqual(["user.name", "user.email"]);
    const ofTemplate: Record<string, string[]> = { tpl_a: ["name"], tpl_b: ["order.items", "name"] };
    const steps = [first, { uid: "w", type: "wait" as const, amount: "1", unit: "days" as const }, second];
    expect(workflowVariables(steps, (id) => ofTemplate[id] ?? [])).toEqual([
      "user.name",
      "user.email",
      "name",
      "ticket.id",
      "order.items",
    ]);
  });

  it("builds a sample skeleton with every path, email-like leaves filled in; reports what a sample lacks", () => {
    const paths = ["user.email", "user.name", "items[0].title", "name", "user"];
    const skeleton = variablesSkeleton(paths);
    expect(skeleton).toEqual({ user: { email: "test@example.org", name: "" }, items: [{ title: "" }], name: "" });
    expect(missingSampleVariables(paths, skeleton)).toEqual([]);
    expect(missingSampleVariables(paths, { user: { name: "Ann" } })).toEqual(["user.email", "items[0].title", "name"]);
  });

  it("parses sample variables: an object, or why not", () => {
    expect(parseSampleVariables('{"a": 1}')).toEqual({ variables: { a: 1 } });
    expect(parseSampleVariables("  ")).toEqual({ variables: {} });
    expect(parseSampleVariables("{a: 1}")).toMatchObject({ error: expect.stringMatching(/^Not valid JSON/) });
    expect(parseSampleVariables("[1]")).toMatchObject({ error: expect.stringMatching(/must be a JSON object/) });
  });
});

describe("errors", () => {
  it("every shape problem of a definition names its field; the builder files them under their step", () => {
    const issues = workflowDefinitionIssues({
      name: "",
      steps: [
        { type: "sendEmail", templateId: "tpl_a", to: " " },
        { type: "wait", seconds: 0 },
        { type: "sendEmail", templateId: "tpl_a", to: "x@example.org", cc: "{{ a" },
      ],
    });
    expect(issues.map((issue) => issue.param)).toEqual(["name", "steps[0].to", "steps[1].seconds", "steps[2].cc"]);
    expect(stepErrors(issues, 0)).toEqual({ to: "must not be empty" });
    expect(stepErrors(issues, 2).cc).toMatch(/not valid Liquid/);
    expect(workflowErrors(issues)).toEqual({ name: "must not be empty" });
    expect(stepErrors([{ param: "steps[1]", message: "bad step" }], 1)).toEqual({ "": "bad step" });
    expect(workflowErrors([{ message: "whole" }, { param: "steps", message: "no send" }])).toEqual({
      "": "whole",
      steps: "no send",
    });
    expect(issues.map((issue) => describeParam(issue.param))).toEqual([
      "Name",
      "Step 1, To",
      "Step 2, wait",
      "Step 3, Cc",
    ]);
    expect(describeParam(undefined)).toBe("Workflow");
    expect(
      workflowDefinitionIssues({ name: "ok", steps: [{ type: "sendEmail", templateId: "t", to: "a@example.org" }] }),
    ).toEqual([]);
  });
});

describe("waitUnitLabel", () => {
  it("agrees with the amount: 1 day, 2 days, 1 hour, 90 minutes", () => {
    expect(waitUnitLabel("1", "days")).toBe("day");
    expect(waitUnitLabel("2", "days")).toBe("days");
    expect(waitUnitLabel("1", "hours")).toBe("hour");
    expect(waitUnitLabel("90", "minutes")).toBe("minutes");
    expect(waitUnitLabel("", "days")).toBe("days");
  });
});
