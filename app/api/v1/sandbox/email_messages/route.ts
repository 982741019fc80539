import { methodNotAllowed } from "@/lib/entry/api/with-api-key";
import { sendEmailHandler } from "../../_handlers/send-email-handler";

// POST /v1/sandbox/email_messages – same as the live endpoint, never delivered
export const POST = sendEmailHandler({ sandbox: true });

const notAllowed = methodNotAllowed("POST");
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
