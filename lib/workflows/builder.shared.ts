import type { WorkflowStep } from "@/db/schema";
import { missingVariables, templateVariables } from "@/lib/templates/variables.shared";

/**
 * The dashboard builder's draft of a workflow and its translation to and from the stored definition
 * (schemas.ts). Pure, so the client component and the tests share it. Every text field is a string
 * ("" = not set); waits are an amount and a unit, stored in seconds.
 */
export const WAIT_UNITS = { minutes: 60, hours: 3600, days: 86_400, seconds: 1 } as const;
export type WaitUnit = keyof typeof WAIT_UNITS;

export const ADDRESS_FIELDS = ["to", "cc", "bcc", "from", "replyTo"] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];

export type SendStepDraft = { uid: string; type: "sendEmail"; templateId: string; groupKey: string } & Record<AddressField, string>;
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
  /** The variables its subject, bodies, sender and reply-to read (templateVariables). */
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

/** What the builder's save action answers. */
export type SaveWorkflowResult = { ok: true; updatedAt: string } | { ok: false; errors: FieldError[] };

/** What the builder's "Run as sandbox" action answers. */
export type TestRunResult = { ok: true; runId: string; status: string; reason: string | null } | { ok: false; error: FieldError };

const FIELD_LABELS: Record<string, string> = {
  templateId: "template",
  to: "To",
  cc: "Cc",
  bcc: "Bcc",
  from: "From",
  replyTo: "Reply-to",
  groupKey: "unsubscribe group",
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

/** Amount × unit in whole seconds; null when the amount is not a number (the server then names the field). */
export function waitSeconds(amount: string, unit: WaitUnit): number | null {
  const value = Number(amount);
  if (amount.trim() === "" || !Number.isFinite(value)) return null;
  return Math.round(value * WAIT_UNITS[unit]);
}

export function newSendStep(uid: string, templateId = ""): SendStepDraft {
  return { uid, type: "sendEmail", templateId, to: "", cc: "", bcc: "", from: "", replyTo: "", groupKey: "" };
}

export function newWaitStep(uid: string): WaitStepDraft {
  return { uid, type: "wait", amount: "1", unit: "days" };
}

export function draftFromWorkflow(workflow: { name: string; key: string | null; enabled: boolean; steps: WorkflowStep[] }): WorkflowDraft {
  const steps = workflow.steps.map((step, index): StepDraft => {
    const uid = `step-${index}`;
    if (step.type === "wait") return { uid, type: "wait", ...splitWait(step.seconds) };
    const draft = newSendStep(uid, step.templateId);
    for (const field of ADDRESS_FIELDS) draft[field] = step[field] ?? "";
    return { ...draft, groupKey: step.groupKey ?? "" };
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

/** Variables a Liquid source reads; a source that does not parse (yet: the user is typing) reads none. */
export function safeVariables(sources: string[]): string[] {
  const found: string[] = [];
  for (const source of sources) {
    try {
      found.push(...templateVariables([source]));
    } catch {
      // Invalid Liquid is reported by the server on save, next to its field.
    }
  }
  return [...new Set(found)];
}

/** The variables a send step's address fields use (`{{ user.email }}` → user.email). */
export function addressVariables(step: SendStepDraft): string[] {
  return safeVariables(ADDRESS_FIELDS.map((field) => step[field]));
}

/** Every variable the workflow needs: each send step's address fields, then its template's, in order. */
export function workflowVariables(steps: StepDraft[], templateVariablesOf: (templateId: string) => string[]): string[] {
  const all = new Set<string>();
  for (const step of steps) {
    if (step.type !== "sendEmail") continue;
    for (const path of [...addressVariables(step), ...templateVariablesOf(step.templateId)]) all.add(path);
  }
  return [...all];
}

/** The needed paths the sample does not hold (rendering is lenient: they would render empty). */
export function missingSampleVariables(paths: string[], sample: Record<string, unknown>): string[] {
  return missingVariables(
    paths.map((path) => `{{ ${path} }}`),
    sample,
  );
}

/** `user.email`, `items[0].name` → ["user", "email"], ["items", 0, "name"]. */
function pathSegments(path: string): Array<string | number> {
  return [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((match) => (match[2] !== undefined ? Number(match[2]) : match[1]));
}

/**
 * Sample variables with every needed path present: nested objects and arrays, strings at the leaves
 * ("test@example.org" where the name says email, so a test run has somewhere to send).
 */
export function variablesSkeleton(paths: string[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const path of paths) {
    const segments = pathSegments(path);
    let node: Record<string | number, unknown> = root;
    segments.forEach((segment, index) => {
      const last = index === segments.length - 1;
      const existing = node[segment];
      if (last) {
        if (existing === undefined) node[segment] = /e-?mail/i.test(String(segment)) ? "test@example.org" : "";
        return;
      }
      const wantArray = typeof segments[index + 1] === "number";
      if (typeof existing !== "object" || existing === null) node[segment] = wantArray ? [] : {};
      node = node[segment] as Record<string | number, unknown>;
    });
  }
  return root;
}

/** Parses the sample-variables text: an object, or the reason it is not one. */
export function parseSampleVariables(text: string): { variables: Record<string, unknown> } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text.trim() === "" ? "{}" : text);
  } catch (error) {
    return { error: `Not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { error: "The variables must be a JSON object, like {\"user\": {…}}." };
  return { variables: value as Record<string, unknown> };
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
