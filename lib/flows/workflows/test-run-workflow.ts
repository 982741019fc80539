import "server-only";
import { triggerWorkflowRun } from "./trigger-workflow-run";
import type { WorkflowRunView } from "./get-workflow-run-or-throw";

/**
 * The builder's "Run as sandbox": a sandbox run of the saved workflow with sample variables, through
 * the same path as POST /v1/sandbox/workflow_runs (its messages are stored, never delivered; waits
 * take their real time). Unlike a trigger, it runs a disabled workflow too: trying a workflow before
 * switching it on is what a test run is for. Bad variables → 400 naming `variables`.
 */
export async function testRunWorkflow(input: { workspaceId: string; workflowId: string; variables: unknown }): Promise<WorkflowRunView> {
  const { run } = await triggerWorkflowRun({
    workspaceId: input.workspaceId,
    sandbox: true,
    body: { workflowId: input.workflowId, variables: input.variables },
    runDisabled: true,
  });
  return run;
}
