import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { deleteWorkflow } from "@/lib/flows/workflows/delete-workflow";
import { getWorkflowOrThrow } from "@/lib/flows/workflows/get-workflow-or-throw";
import { serializeWorkflow } from "@/lib/flows/workflows/serialize";
import { updateWorkflow } from "@/lib/flows/workflows/update-workflow";
import { workflowChanges } from "@/lib/flows/workflows/workflow-request";

type Params = { id: string };

// GET /v1/workflows/:id
export const GET = withApiKey<Params>({ scope: "workflows:write", body: "none" }, async ({ principal, params }) =>
  ok(serializeWorkflow(await getWorkflowOrThrow(principal.workspaceId, params.id))),
);

// PATCH /v1/workflows/:id – name, key (null removes it), enabled, steps over the current definition, checked as the builder's save
export const PATCH = withApiKey<Params>(
  { scope: "workflows:write", body: "json", maxBytes: 1024 * 1024 },
  async ({ principal, request, params, body }) => {
    const definition = workflowChanges(body);
    return ok(
      serializeWorkflow(
        await updateWorkflow({
          workspaceId: principal.workspaceId,
          workflowId: params.id,
          definition,
          actor: apiActor(principal, request),
        }),
      ),
    );
  },
);

// DELETE /v1/workflows/:id – its runs are kept (their workflowId becomes null)
export const DELETE = withApiKey<Params>(
  { scope: "workflows:write", body: "none" },
  async ({ principal, request, params }) => {
    await deleteWorkflow({
      workspaceId: principal.workspaceId,
      workflowId: params.id,
      actor: apiActor(principal, request),
    });
    return ok({ id: params.id, deleted: true });
  },
);
