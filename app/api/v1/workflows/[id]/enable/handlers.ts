import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { serializeWorkflow } from "@/lib/flows/workflows/serialize";
import { setWorkflowEnabled } from "@/lib/flows/workflows/set-workflow-enabled";

// POST /v1/workflows/:id/enable – no body; already enabled: answered as it is, nothing audited
export const POST = withApiKey<{ id: string }>(
  { scope: "workflows:write", body: "none" },
  async ({ principal, request, params }) =>
    ok(
      serializeWorkflow(
        await setWorkflowEnabled({
          workspaceId: principal.workspaceId,
          workflowId: params.id,
          enabled: true,
          actor: apiActor(principal, request),
        }),
      ),
    ),
);
