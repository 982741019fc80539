import { methodNotAllowed } from "@/lib/entry/api/with-api-key";
import { triggerWorkflowHandler } from "../_handlers/trigger-workflow-handler";

// POST /v1/workflow_runs – start a workflow by id or key with variables
export const POST = triggerWorkflowHandler({ sandbox: false });

const notAllowed = methodNotAllowed("POST");
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
