import { methodNotAllowed } from "@/lib/api/with-api-key";
import { sendBatchHandler } from "../_handlers/send-batch-handler";

// POST /v1/email_messages_batch – the older path of POST /v1/batches
export const POST = sendBatchHandler({ sandbox: false });

const notAllowed = methodNotAllowed("POST");
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
