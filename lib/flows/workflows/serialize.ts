import type { workflowRuns, workflows } from "@/db/schema";

type WorkflowRow = typeof workflows.$inferSelect;
type WorkflowRunRow = typeof workflowRuns.$inferSelect;

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** The public Workflow: what the CLI prints and the dashboard shows. Never a raw row. */
export function serializeWorkflow(workflow: WorkflowRow) {
  return {
    id: workflow.id,
    type: "Workflow" as const,
    createdAt: workflow.createdAt.toISOString(),
    updatedAt: workflow.updatedAt.toISOString(),
    name: workflow.name,
    key: workflow.key,
    enabled: workflow.enabled,
    steps: workflow.steps,
  };
}

/** The public WorkflowRun (docs/api.md#decided-workflows), plus `completedAt`. */
export function serializeWorkflowRun(run: WorkflowRunRow & { emailMessageIds: string[] }) {
  return {
    id: run.id,
    type: "WorkflowRun" as const,
    createdAt: run.createdAt.toISOString(),
    updatedAt: run.updatedAt.toISOString(),
    workflowId: run.workflowId,
    workflowKey: run.workflowKey,
    sandbox: run.sandbox,
    status: run.status,
    reason: run.reason,
    variables: run.variables,
    metaId: run.metaId,
    tags: run.tags,
    emailMessageIds: run.emailMessageIds,
    completedAt: iso(run.completedAt),
  };
}
