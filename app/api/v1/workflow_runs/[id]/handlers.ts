import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { getWorkflowRunOrThrow } from "@/lib/flows/workflows/get-workflow-run-or-throw";
import { serializeWorkflowRun } from "@/lib/flows/workflows/serialize";

// GET /v1/workflow_runs/:id – one run (live or sandbox) with its status and messages
export const GET = withApiKey<{ id: string }>({ scope: "emails:read", body: "none" }, async ({ principal, params }) =>
  ok(serializeWorkflowRun(await getWorkflowRunOrThrow(principal.workspaceId, params.id))),
);
