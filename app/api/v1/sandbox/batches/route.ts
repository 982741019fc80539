import { methodNotAllowed } from "@/lib/entry/api/with-api-key";
import { sendBatchHandler } from "../../_handlers/send-batch-handler";

// POST /v1/sandbox/batches – same as the live endpoint, never delivered
export const POST = sendBatchHandler({ sandbox: true });

const notAllowed = methodNotAllowed("POST");
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
