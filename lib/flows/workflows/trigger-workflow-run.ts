import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { workflowRuns, workflows, type WorkflowRunStatus } from "@/db/schema";
import { AppError, invalidParameter, notFound } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";
import { queueTransaction } from "@/lib/records/queue/queue";
import { claimIdempotencyKey, hashRequestBody } from "@/lib/sending/idempotency";
import { assertKnownKeys, dropNulls, isPlainObject, zodToAppError } from "@/lib/foundation/validation.shared";
import { enqueueWorkflowStep } from "@/lib/records/queue/enqueue-workflow-step";
import { getWorkflowRunOrThrow, type WorkflowRunView } from "./get-workflow-run-or-throw";
import { normaliseTags } from "@/lib/domain/messages/tags.shared";
import { canonicalLocaleOrThrow } from "@/lib/domain/templates/locale-variants.shared";
import { triggerWorkflowRunSchema, type TriggerWorkflowRunBody } from "./schemas";

export interface TriggerWorkflowRunResult {
  run: WorkflowRunView;
  /** True when metaId and body matched an earlier request: nothing new was created. */
  replayed: boolean;
}

export interface TriggerWorkflowRunInput {
  workspaceId: string;
  sandbox: boolean;
  body: unknown;
  /** The dashboard's test run only (test-run-workflow.ts): run the workflow even while it is disabled. */
  runDisabled?: boolean;
}

/**
 * POST /v1/workflow_runs (docs/api.md#decided-workflows): a key matching no enabled workflow, or a disabled one by id,
 * gives a SKIPPED run, so callers can ship first. Otherwise the run and its first step job commit together.
 */
export async function triggerWorkflowRun(input: TriggerWorkflowRunInput): Promise<TriggerWorkflowRunResult> {
  const request = parseTriggerRequest(input.body);
  const db = await getDb();
  const target = await resolveTarget(db, input.workspaceId, request, input.runDisabled ?? false);
  const runId = newId("workflowRun");
  const replayOf = await queueTransaction(async (tx) => {
    if (request.metaId) {
      const earlier = await claimIdempotencyKey(tx, {
        workspaceId: input.workspaceId,
        scope: input.sandbox ? "workflow_runs:sandbox" : "workflow_runs:live",
        metaId: request.metaId,
        requestHash: hashRequestBody(input.body),
        resourceId: runId,
      });
      if (earlier) return earlier;
    }
    await tx.insert(workflowRuns).values({
      id: runId,
      workspaceId: input.workspaceId,
      workflowId: target.workflow?.id ?? null,
      workflowKey: request.workflowKey ?? target.workflow?.key ?? null,
      sandbox: input.sandbox,
      status: target.status,
      reason: target.reason,
      variables: request.variables ?? {},
      metaId: request.metaId ?? null,
      tags: request.tags ?? [],
      steps: target.status === "RUNNING" ? target.workflow!.steps : [],
    });
    if (target.status === "RUNNING") await enqueueWorkflowStep(tx, { workspaceId: input.workspaceId, runId, step: 0 });
    return null;
  });
  const run = await getWorkflowRunOrThrow(input.workspaceId, replayOf ?? runId);
  return { run, replayed: replayOf !== null };
}

function parseTriggerRequest(body: unknown): TriggerWorkflowRunBody {
  if (!isPlainObject(body)) throw new AppError("INVALID_JSON", "The request body must be a JSON object.");
  assertKnownKeys(body, triggerWorkflowRunSchema);
  const parsed = triggerWorkflowRunSchema.safeParse(dropNulls(body));
  if (!parsed.success) throw zodToAppError(parsed.error);
  const request = parsed.data;
  if (request.workflowId !== undefined && request.workflowKey !== undefined) {
    throw invalidParameter("workflowKey", "Give either workflowId or workflowKey, not both.");
  }
  if (request.workflowId === undefined && request.workflowKey === undefined) {
    throw invalidParameter("workflowId", "workflowId or workflowKey is required: the workflow to run.");
  }
  // The run's locale (docs/templates.md#where-the-locale-comes-from): a malformed one is refused now, not at each step.
  const locale = request.variables?.locale;
  if (locale !== undefined && locale !== null)
    canonicalLocaleOrThrow(typeof locale === "string" ? locale : JSON.stringify(locale), "variables.locale");
  return { ...request, tags: normaliseTags(request.tags) };
}

interface Target {
  workflow: typeof workflows.$inferSelect | null;
  status: Extract<WorkflowRunStatus, "RUNNING" | "SKIPPED">;
  reason: string | null;
}

async function resolveTarget(
  db: Executor,
  workspaceId: string,
  request: TriggerWorkflowRunBody,
  runDisabled: boolean,
): Promise<Target> {
  const byId = request.workflowId !== undefined;
  const [workflow] = await db
    .select()
    .from(workflows)
    .where(
      and(
        eq(workflows.workspaceId, workspaceId),
        byId ? eq(workflows.id, request.workflowId!) : eq(workflows.key, request.workflowKey!),
      ),
    );
  if (!workflow) {
    if (byId) throw notFound(`Workflow ${request.workflowId}`, "workflowId");
    const reason = `No workflow has the key "${request.workflowKey}" in this workspace yet; nothing was run.`;
    return { workflow: null, status: "SKIPPED", reason };
  }
  if (!workflow.enabled && !runDisabled) {
    const reason = `The workflow "${workflow.name}" (${workflow.id}) is disabled; nothing was run.`;
    return { workflow, status: "SKIPPED", reason };
  }
  return { workflow, status: "RUNNING", reason: null };
}
