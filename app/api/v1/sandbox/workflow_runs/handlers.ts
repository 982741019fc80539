import { triggerWorkflowHandler } from "../../_handlers/trigger-workflow-handler";

// POST /v1/sandbox/workflow_runs – same as the live endpoint; its emails are never delivered
export const POST = triggerWorkflowHandler({ sandbox: true });
