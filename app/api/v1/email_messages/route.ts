import { methodNotAllowed } from "@/lib/api/with-api-key";
import { sendEmailHandler } from "../_handlers/send-email-handler";

// POST /v1/email_messages – send an email, with a template or raw content
export const POST = sendEmailHandler({ sandbox: false });

const notAllowed = methodNotAllowed("POST");
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
