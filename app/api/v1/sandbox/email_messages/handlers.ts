import { sendEmailHandler } from "../../_handlers/send-email-handler";

// POST /v1/sandbox/email_messages – same as the live endpoint, never delivered
export const POST = sendEmailHandler({ sandbox: true });
