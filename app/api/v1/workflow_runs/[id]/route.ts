import { ok } from "@/lib/api/respond";
import { methodNotAllowed, withApiKey } from "@/lib/api/with-api-key";
import { getWorkflowRunOrThrow } from "@/lib/workflows/get-workflow-run-or-throw";
import { serializeWorkflowRun } from "@/lib/workflows/serialize";

// GET /v1/workflow_runs/:id – one run (live or sandbox) with its status and messages
export const GET = withApiKey<{ id: string }>({ scope: "emails:read", body: "none" }, async ({ principal, params }) =>
  ok(serializeWorkflowRun(await getWorkflowRunOrThrow(principal.workspaceId, params.id))),
);

const notAllowed = methodNotAllowed("GET");
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
