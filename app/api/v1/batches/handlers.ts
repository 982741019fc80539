import { sendBatchHandler } from "../_handlers/send-batch-handler";

// POST /v1/batches – send many messages (1–1000), all or nothing
export const POST = sendBatchHandler({ sandbox: false });
