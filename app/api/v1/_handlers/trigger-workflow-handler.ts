import { sendScope } from "@/lib/domain/api-keys/scopes.shared";
import { created, ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { serializeWorkflowRun } from "@/lib/flows/workflows/serialize";
import { triggerWorkflowRun } from "@/lib/flows/workflows/trigger-workflow-run";

/** Shared by POST /v1/workflow_runs and /v1/sandbox/workflow_runs. */
export function triggerWorkflowHandler({ sandbox }: { sandbox: boolean }) {
  return withApiKey({ scope: sendScope(sandbox), body: "json", sandbox }, async ({ principal, body }) => {
    const { run, replayed } = await triggerWorkflowRun({ workspaceId: principal.workspaceId, sandbox, body });
    return replayed
      ? ok(serializeWorkflowRun(run), { "idempotent-replayed": "true" })
      : created(serializeWorkflowRun(run));
  });
}
