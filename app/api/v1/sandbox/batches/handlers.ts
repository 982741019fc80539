import { sendBatchHandler } from "../../_handlers/send-batch-handler";

// POST /v1/sandbox/batches – same as the live endpoint, never delivered
export const POST = sendBatchHandler({ sandbox: true });
