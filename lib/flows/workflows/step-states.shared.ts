import type { WorkflowRunStatus, WorkflowStep } from "@/db/schema";

export type StepState = "done" | "running" | "waiting" | "failed" | "pending" | "not run";

export interface StepView {
  index: number;
  kind: WorkflowStep["type"];
  /** One line on what the step does: its template and recipient, or how long it waits. */
  summary: string;
  /** A send step's template and recipient, for a page that links the template by its name; null for a wait. */
  send: { templateId: string; to: string } | null;
  state: StepState;
}

/** Where a run stands on each step, from its status and `nextStep` (a failing step still advances it). */
export function stepStates(run: { status: WorkflowRunStatus; nextStep: number; steps: WorkflowStep[] }): StepView[] {
  const failedAt = run.status === "FAILED" ? run.nextStep - 1 : -1;
  const waitingAt = inWait(run) ? run.nextStep - 1 : -1;
  return run.steps.map((step, index) => ({
    index,
    kind: step.type,
    summary: summarize(step),
    send: step.type === "sendEmail" ? { templateId: step.templateId, to: step.to } : null,
    state:
      index === waitingAt
        ? "waiting"
        : index === waitingAt + 1 && waitingAt >= 0
          ? "pending"
          : stateOf(run, step, index, failedAt),
  }));
}

/** Steps finished, counting a failed step as done with (it ran and will not run again). */
export function stepsDone(run: { status: WorkflowRunStatus; nextStep: number; steps: WorkflowStep[] }): number {
  if (run.status === "COMPLETED") return run.steps.length;
  return Math.min(run.nextStep - (inWait(run) ? 1 : 0), run.steps.length);
}

// A wait commits at once (next_step already past it, its successor a delayed job), so while a run waits that wait is in progress.
function inWait(run: { status: WorkflowRunStatus; nextStep: number; steps: WorkflowStep[] }): boolean {
  return run.status === "RUNNING" && run.steps[run.nextStep - 1]?.type === "wait";
}

function stateOf(
  run: { status: WorkflowRunStatus; nextStep: number },
  step: WorkflowStep,
  index: number,
  failedAt: number,
): StepState {
  if (run.status === "COMPLETED") return "done";
  if (run.status === "FAILED") return index < failedAt ? "done" : index === failedAt ? "failed" : "not run";
  if (index < run.nextStep) return "done";
  if (index === run.nextStep && run.status === "RUNNING") return step.type === "wait" ? "waiting" : "running";
  return "pending";
}

function summarize(step: WorkflowStep): string {
  if (step.type === "wait") return `Wait ${formatSeconds(step.seconds)}`;
  return `Send template ${step.templateId} to ${step.to}`;
}

function formatSeconds(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} d`;
  if (seconds % 3_600 === 0) return `${seconds / 3_600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}
