import { simpleParser } from "mailparser";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { sendMessage } from "@/lib/sending/send-message";
import { readMessageState } from "@/lib/testing/fixtures";

export async function sendLive(workspaceId: string, body: Record<string, unknown>): Promise<string> {
  const { message } = await sendMessage({ workspaceId, sandbox: false, body });
  return message.id;
}

/** Runs the delivery job (local provider) as the worker would; the queue is shared by test files on PostgreSQL, so no worker is started. */
export async function deliver(workspaceId: string, messageId: string): Promise<void> {
  await deliverMessage({ workspaceId, messageId }, { attempt: 0 });
}

export async function messageState(messageId: string) {
  const { inbox, ...rest } = await readMessageState(messageId);
  const parsed = inbox[0] ? await simpleParser(inbox[0].mime) : null;
  return { ...rest, inbox: inbox[0] ?? null, parsed };
}
