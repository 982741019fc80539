import type { WorkflowStep } from "@/db/schema";
import { pluralWord } from "@/lib/foundation/plural.shared";

// The builder's draft ("" = not set; waits as amount and unit) and its translation to and from the stored definition.
// Pure, so the client component and the tests share it.
export const WAIT_UNITS = { minutes: 60, hours: 3600, days: 86_400, seconds: 1 } as const;
export type WaitUnit = keyof typeof WAIT_UNITS;

export const ADDRESS_FIELDS = ["to", "cc", "bcc", "from", "replyTo"] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];

export type SendStepDraft = {
  uid: string;
  type: "sendEmail";
  templateId: string;
  groupKey: string;
  /** "" = the run's variables.locale, else the contact's (docs/templates.md#where-the-locale-comes-from). */
  locale: string;
} & Record<AddressField, string>;
export type WaitStepDraft = { uid: string; type: "wait"; amount: string; unit: WaitUnit };
export type StepDraft = SendStepDraft | WaitStepDraft;

export interface WorkflowDraft {
  name: string;
  key: string;
  enabled: boolean;
  steps: StepDraft[];
}

/** A template the builder offers, with the variables it uses (computed on the server). */
export interface TemplateChoice {
  id: string;
  name: string;
  variables: string[];
}

export interface GroupChoice {
  key: string;
  name: string;
}

/** A server-side problem with the field it names (`steps[2].to`, `key`, or none). */
export interface FieldError {
  param?: string;
  message: string;
}

export type SaveWorkflowResult = { ok: true; updatedAt: string } | { ok: false; errors: FieldError[] };

export type TestRunResult =
  { ok: true; runId: string; status: string; reason: string | null } | { ok: false; error: FieldError };

const FIELD_LABELS: Record<string, string> = {
  templateId: "template",
  to: "To",
  cc: "Cc",
  bcc: "Bcc",
  from: "From",
  replyTo: "Reply-to",
  groupKey: "unsubscribe group",
  locale: "locale",
  seconds: "wait",
  type: "type",
};

/** `steps[2].to` → "Step 3, To"; `key` → "Key": where a problem is, in the builder's words. */
export function describeParam(param: string | undefined): string {
  if (!param) return "Workflow";
  const step = /^steps\[(\d+)\](?:\.(\w+))?$/.exec(param);
  if (step) return `Step ${Number(step[1]) + 1}${step[2] ? `, ${FIELD_LABELS[step[2]] ?? step[2]}` : ""}`;
  if (param === "steps") return "Steps";
  return param.charAt(0).toUpperCase() + param.slice(1);
}

/** The largest unit the seconds are a whole number of; seconds only for values the CLI stored. */
export function splitWait(seconds: number): { amount: string; unit: WaitUnit } {
  for (const unit of ["days", "hours", "minutes"] as const) {
    if (seconds % WAIT_UNITS[unit] === 0) return { amount: String(seconds / WAIT_UNITS[unit]), unit };
  }
  return { amount: String(seconds), unit: "seconds" };
}

const UNIT_SINGULAR: Record<WaitUnit, string> = { minutes: "minute", hours: "hour", days: "day", seconds: "second" };

/** The unit as the builder shows it after the amount: "1 day", "2 days" (the stored value stays plural). */
export function waitUnitLabel(amount: string, unit: WaitUnit): string {
  return pluralWord(Number(amount), UNIT_SINGULAR[unit], unit);
}

/** Amount × unit in whole seconds; null when the amount is not a number (the server then names the field). */
export function waitSeconds(amount: string, unit: WaitUnit): number | null {
  const value = Number(amount);
  if (amount.trim() === "" || !Number.isFinite(value)) return null;
  return Math.round(value * WAIT_UNITS[unit]);
}

export function newSendStep(uid: string, templateId = ""): SendStepDraft {
  return {
    uid,
    type: "sendEmail",
    templateId,
    to: "",
    cc: "",
    bcc: "",
    from: "",
    replyTo: "",
    groupKey: "",
    locale: "",
  };
}

export function newWaitStep(uid: string): WaitStepDraft {
  return { uid, type: "wait", amount: "1", unit: "days" };
}

export function draftFromWorkflow(workflow: {
  name: string;
  key: string | null;
  enabled: boolean;
  steps: WorkflowStep[];
}): WorkflowDraft {
  const steps = workflow.steps.map((step, index): StepDraft => {
    const uid = `step-${index}`;
    if (step.type === "wait") return { uid, type: "wait", ...splitWait(step.seconds) };
    const draft = newSendStep(uid, step.templateId);
    for (const field of ADDRESS_FIELDS) draft[field] = step[field] ?? "";
    return { ...draft, groupKey: step.groupKey ?? "", locale: step.locale ?? "" };
  });
  return { name: workflow.name, key: workflow.key ?? "", enabled: workflow.enabled, steps };
}

/** What the save action sends: unset fields left out (an empty `to` is kept, so the server names it). */
export function definitionFromDraft(draft: WorkflowDraft): Record<string, unknown> {
  const steps = draft.steps.map((step) => {
    if (step.type === "wait") return { type: "wait", seconds: waitSeconds(step.amount, step.unit) };
    const out: Record<string, unknown> = { type: "sendEmail", templateId: step.templateId, to: step.to };
    for (const field of ADDRESS_FIELDS) if (field !== "to" && step[field].trim() !== "") out[field] = step[field];
    if (step.groupKey) out.groupKey = step.groupKey;
    if (step.locale.trim() !== "") out.locale = step.locale.trim();
    return out;
  });
  return { name: draft.name, ...(draft.key.trim() ? { key: draft.key.trim() } : {}), enabled: draft.enabled, steps };
}

export function moveStep<T>(steps: T[], index: number, delta: -1 | 1): T[] {
  const target = index + delta;
  if (target < 0 || target >= steps.length) return steps;
  const next = [...steps];
  [next[index], next[target]] = [next[target], next[index]];
  return next;
}

/** The errors naming one step (`steps[2]…`), by field ("" for the step as a whole). */
export function stepErrors(errors: FieldError[], index: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const error of errors) {
    const match = /^steps\[(\d+)\](?:\.(\w+))?$/.exec(error.param ?? "");
    if (match && Number(match[1]) === index) out[match[2] ?? ""] ??= error.message;
  }
  return out;
}

/** Errors that name no particular step (name, key, the step list as a whole, or nothing). */
export function workflowErrors(errors: FieldError[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const error of errors) {
    if (/^steps\[\d+\]/.test(error.param ?? "")) continue;
    out[error.param ?? ""] ??= error.message;
  }
  return out;
}
