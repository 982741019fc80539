import { asc, eq } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { getDb } from "@/db/client";
import { emailMessageLogs, emailMessages, localInbox } from "@/db/schema";
import { deliverMessage } from "@/lib/delivery/deliver-message";
import { sendMessage } from "@/lib/messages/send-message";

/** Test helpers for group mail and suppression: a live send through the API's use case, then the real delivery job. */
export async function sendLive(workspaceId: string, body: Record<string, unknown>): Promise<string> {
  const { message } = await sendMessage({ workspaceId, sandbox: false, body });
  return message.id;
}

/** Runs the delivery job (local provider) as the worker would; the queue is shared by test files on PostgreSQL, so no worker is started. */
export async function deliver(workspaceId: string, messageId: string): Promise<void> {
  await deliverMessage({ workspaceId, messageId }, { attempt: 0 });
}

export async function messageState(messageId: string) {
  const db = await getDb();
  const [message] = await db.select().from(emailMessages).where(eq(emailMessages.id, messageId));
  const events = await db
    .select()
    .from(emailMessageLogs)
    .where(eq(emailMessageLogs.emailMessageId, messageId))
    .orderBy(asc(emailMessageLogs.createdAt), asc(emailMessageLogs.id));
  const [inbox] = await db.select().from(localInbox).where(eq(localInbox.emailMessageId, messageId));
  const parsed = inbox ? await simpleParser(inbox.mime) : null;
  return { message, events, codes: events.map((event) => event.code), inbox: inbox ?? null, parsed };
}
