import { methodNotAllowed } from "@/lib/entry/api/with-api-key";
import { triggerWorkflowHandler } from "../../_handlers/trigger-workflow-handler";

// POST /v1/sandbox/workflow_runs – same as the live endpoint; its emails are never delivered
export const POST = triggerWorkflowHandler({ sandbox: true });

const notAllowed = methodNotAllowed("POST");
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
