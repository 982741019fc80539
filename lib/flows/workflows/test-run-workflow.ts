import "server-only";
import { triggerWorkflowRun } from "./trigger-workflow-run";
import type { WorkflowRunView } from "./get-workflow-run-or-throw";

/** A sandbox run of the saved workflow, as POST /v1/sandbox/workflow_runs; runs a disabled workflow too, as trying it first is the point. */
export async function testRunWorkflow(input: {
  workspaceId: string;
  workflowId: string;
  variables: unknown;
}): Promise<WorkflowRunView> {
  const { run } = await triggerWorkflowRun({
    workspaceId: input.workspaceId,
    sandbox: true,
    body: { workflowId: input.workflowId, variables: input.variables },
    runDisabled: true,
  });
  return run;
}
