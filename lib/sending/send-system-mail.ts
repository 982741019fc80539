import "server-only";
import { env } from "@/lib/foundation/env";
import { ensureSystemWorkspace, SYSTEM_WORKSPACE_ID } from "@/lib/domain/workspaces/system-workspace";
import { getDb } from "@/db/client";
import { queueTransaction } from "@/lib/records/queue/queue";
import { getWorkspaceOrThrow } from "@/lib/domain/workspaces/get-workspace-or-throw";
import { acceptMessages } from "./accept-messages";
import { parseSendDraft } from "./parse-send-request";
import { prepareMessage } from "./prepare-message";

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
  // The API's checks and its one accept path, as a typed draft (source API: it is an ordinary live message).
  const command = parseSendDraft({
    from,
    to: mail.to,
    subject: mail.subject,
    bodyHtml: mail.html,
    bodyText: mail.text,
  });
  const db = await getDb();
  const workspace = await getWorkspaceOrThrow(db, SYSTEM_WORKSPACE_ID);
  const prepared = await prepareMessage(db, command, {
    workspace,
    sandbox: false,
    source: "API",
    submittedVia: "system",
  });
  const [message] = await queueTransaction((tx) => acceptMessages(tx, [prepared]));
  return message.id;
}
