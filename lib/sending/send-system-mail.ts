import "server-only";
import { env } from "@/lib/env";
import { ensureSystemWorkspace, SYSTEM_WORKSPACE_ID } from "@/lib/workspaces/system-workspace";
import { sendMessage } from "./send-message";

export interface SystemMail {
  to: string;
  subject: string;
  html: string;
  text: string;
}

let ensured: { from: string; done: Promise<void> } | undefined;

/** Sends one system mail through the configured provider; returns the message id. */
export async function sendSystemMail(mail: SystemMail): Promise<string> {
  const from = env().SYSTEM_EMAIL_FROM;
  // Boot already did this; tests and a changed SYSTEM_EMAIL_FROM need it once per process.
  if (ensured?.from !== from) ensured = { from, done: ensureSystemWorkspace(from) };
  await ensured.done.catch((error) => {
    ensured = undefined;
    throw error;
  });
  const { message } = await sendMessage({
    workspaceId: SYSTEM_WORKSPACE_ID,
    sandbox: false,
    body: { from, to: mail.to, subject: mail.subject, bodyHtml: mail.html, bodyText: mail.text },
  });
  return message.id;
}
