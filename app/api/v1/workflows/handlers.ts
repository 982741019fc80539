import { apiActor } from "@/lib/entry/api/api-actor";
import { created, list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { createWorkflow } from "@/lib/flows/workflows/create-workflow";
import { listWorkflowPage, parseWorkflowListQuery } from "@/lib/flows/workflows/list-workflows";
import { serializeWorkflow } from "@/lib/flows/workflows/serialize";
import { workflowDefinitionSchema } from "@/lib/flows/workflows/schemas";
import { assertKnownKeys } from "@/lib/foundation/validation.shared";

// GET /v1/workflows – the workspace's workflows, newest first, keyset cursors
export const GET = withApiKey({ scope: "workflows:write", body: "none" }, async ({ principal, url }) => {
  const { items, meta } = await listWorkflowPage(principal.workspaceId, parseWorkflowListQuery(url.searchParams));
  return list(meta, items.map(serializeWorkflow));
});

// POST /v1/workflows – a workflow from its definition, with the builder's checks (the CLI's `workflow create`)
export const POST = withApiKey(
  { scope: "workflows:write", body: "json", maxBytes: 1024 * 1024 },
  async ({ principal, request, body }) => {
    // Here, not in createWorkflow: the CLI's definition files and the builder are not API bodies.
    assertKnownKeys(body, workflowDefinitionSchema);
    return created(
      serializeWorkflow(
        await createWorkflow({
          workspaceId: principal.workspaceId,
          definition: body,
          actor: apiActor(principal, request),
        }),
      ),
    );
  },
);
