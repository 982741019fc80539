import { triggerWorkflowHandler } from "../_handlers/trigger-workflow-handler";

// POST /v1/workflow_runs – start a workflow by id or key with variables
export const POST = triggerWorkflowHandler({ sandbox: false });
