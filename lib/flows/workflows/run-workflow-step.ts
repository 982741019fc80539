import "server-only";
import { emitWorkflowRunEvent } from "@/lib/records/timeline/emit-webhook-events";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workflowRuns, type WorkflowRunStatus } from "@/db/schema";
import { queueTransaction } from "@/lib/records/queue/queue";
import { errorFields, log } from "@/lib/foundation/log";
import { acceptMessages } from "@/lib/sending/accept-messages";
import { enqueueWorkflowStep } from "@/lib/records/queue/enqueue-workflow-step";
import type { WorkflowStepJob } from "@/lib/records/queue/jobs";
import type { WorkflowRunRow } from "./get-workflow-run-or-throw";
import { prepareEmailStep, type StepOutcome } from "./prepare-email-step";

export interface WorkflowStepContext {
  /** The queue gives up after this attempt: an unexpected error then ends the run FAILED. */
  lastAttempt?: boolean;
}

/**
 * Runs step `job.step` of a RUNNING run still at that index; anything else is a retried or duplicate job and does
 * nothing (docs/api.md#decided-workflows). Throws to have the queue retry an unexpected error.
 */
export async function runWorkflowStep(job: WorkflowStepJob, context: WorkflowStepContext = {}): Promise<void> {
  const db = await getDb();
  const [run] = await db
    .select()
    .from(workflowRuns)
    .where(and(eq(workflowRuns.id, job.runId), eq(workflowRuns.workspaceId, job.workspaceId)));
  if (!run || run.status !== "RUNNING" || run.nextStep !== job.step || !run.steps[job.step]) return;
  try {
    const step = run.steps[job.step];
    const outcome: StepOutcome =
      step.type === "wait" ? { message: null, failure: null } : await prepareEmailStep(db, run, job.step);
    await commitStep(run, job.step, outcome);
  } catch (error) {
    if (!context.lastAttempt) throw error;
    // Out of retries: end the run rather than leave it RUNNING; the reason is public, so the error goes to the log only.
    const reason = `Step ${job.step + 1} (${run.steps[job.step].type}) could not run because of an internal error, even after retries.`;
    log.error("workflow step failed for good", {
      runId: run.id,
      step: job.step,
      ...errorFields(error, { stack: true }),
    });
    await commitStep(run, job.step, { message: null, failure: { reason, code: null } });
  }
}

/** Advances next_step by compare-and-set, then the step's writes, in one transaction: a retry never sends twice (false: already done). */
async function commitStep(run: WorkflowRunRow, index: number, outcome: StepOutcome): Promise<boolean> {
  const step = run.steps[index];
  const status: WorkflowRunStatus = outcome.failure
    ? "FAILED"
    : index === run.steps.length - 1
      ? "COMPLETED"
      : "RUNNING";
  const now = new Date();
  const done = await queueTransaction(async (tx) => {
    const [advanced] = await tx
      .update(workflowRuns)
      .set({
        nextStep: index + 1,
        status,
        reason: outcome.failure?.reason ?? null,
        updatedAt: now,
      })
      .where(
        and(
          eq(workflowRuns.id, run.id),
          eq(workflowRuns.workspaceId, run.workspaceId),
          eq(workflowRuns.status, "RUNNING"),
          eq(workflowRuns.nextStep, index),
        ),
      )
      .returning({ id: workflowRuns.id });
    if (!advanced) return false;
    if (outcome.message) {
      const code = outcome.failure?.code;
      const failure = code ? { code, sentence: `Workflow run ${run.id}: ${outcome.failure!.reason}` } : undefined;
      await acceptMessages(tx, [{ ...outcome.message, failure }], { workflowRunId: run.id });
    }
    if (status === "RUNNING") {
      const delay = step.type === "wait" ? step.seconds : 0;
      await enqueueWorkflowStep(tx, { workspaceId: run.workspaceId, runId: run.id, step: index + 1 }, delay);
    }
    if (status === "COMPLETED") {
      // Stamped after the last message is written, so completedAt is never before its createdAt.
      const completedAt = new Date();
      await tx
        .update(workflowRuns)
        .set({ completedAt, updatedAt: completedAt })
        .where(and(eq(workflowRuns.id, run.id), eq(workflowRuns.workspaceId, run.workspaceId)));
      await emitWorkflowRunEvent(tx, run, "workflow_run.completed", completedAt);
    }
    if (status === "FAILED") await emitWorkflowRunEvent(tx, run, "workflow_run.failed", now);
    return true;
  });
  if (done) log.info("workflow step done", { runId: run.id, step: index, type: step.type, status });
  return done;
}
