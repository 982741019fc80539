import { methodNotAllowed } from "@/lib/entry/api/with-api-key";
import { sendBatchHandler } from "../_handlers/send-batch-handler";

// POST /v1/batches – send many messages (1–1000), all or nothing
export const POST = sendBatchHandler({ sandbox: false });

const notAllowed = methodNotAllowed("POST");
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
