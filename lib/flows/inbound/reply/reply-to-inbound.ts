import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { inboundMessages } from "@/db/schema";
import { getInboundMessageOrThrow } from "@/lib/domain/inbound/get-inbound-message";
import type { InboundMessageRow } from "@/lib/domain/inbound/serialize-inbound-message";
import { replySubject } from "@/lib/domain/inbound/subject-key";
import { invalidParameter, notFound } from "@/lib/foundation/errors";
import { sendMessage, type SendMessageResult } from "@/lib/sending/send-message";

export interface ReplyInput {
  workspaceId: string;
  /** A send body (docs/inbound.md#the-reply-api); `to` and `subject` default to the mail's sender and `Re: …`. */
  body: unknown;
  allowedSenders?: readonly string[];
}

/**
 * POST /v1/inbound_messages/:id/reply (docs/inbound.md#the-reply-api): a send through the one accept path, answering
 * the mail: In-Reply-To its Message-ID, References its References and Message-ID, `Re: <subject>` once, to its
 * Reply-To (else From), and in its thread, committed with the message.
 */
export async function replyToInboundMessage(
  input: ReplyInput & { inboundMessageId: string },
): Promise<SendMessageResult> {
  const mail = await getInboundMessageOrThrow(input.workspaceId, input.inboundMessageId);
  return replyTo(mail, input);
}

/** POST /v1/threads/:id/reply: answers the newest mail received in the thread. */
export async function replyToThread(input: ReplyInput & { threadId: string }): Promise<SendMessageResult> {
  const db = await getDb();
  const [mail] = await db
    .select()
    .from(inboundMessages)
    .where(and(eq(inboundMessages.workspaceId, input.workspaceId), eq(inboundMessages.threadId, input.threadId)))
    .orderBy(desc(inboundMessages.createdAt), desc(inboundMessages.id))
    .limit(1);
  if (!mail) throw notFound(`Thread ${input.threadId}`, "id");
  return replyTo(mail, input);
}

async function replyTo(mail: InboundMessageRow, input: ReplyInput): Promise<SendMessageResult> {
  if (typeof input.body !== "object" || input.body === null || Array.isArray(input.body)) {
    throw invalidParameter(
      "body",
      "The body must be a JSON object: a send such as { from, text } or { from, templateId }.",
    );
  }
  const body = { ...(input.body as Record<string, unknown>) };
  if (body.to === undefined) {
    const answerTo = mail.replyTo[0]?.address ?? mail.fromAddress;
    if (!answerTo) throw invalidParameter("to", "The mail names no sender to answer: give to.");
    body.to = answerTo;
  }
  if (body.subject === undefined && body.templateId === undefined) body.subject = replySubject(mail.subject);
  const parent = mail.messageIdHeader;
  const references = [...mail.references, ...(parent ? [parent] : [])].slice(-50).join(" ");
  const headers: Record<string, string> = {};
  if (parent) headers["in-reply-to"] = parent;
  if (references) headers.references = references;
  return sendMessage({
    workspaceId: input.workspaceId,
    sandbox: false,
    body,
    allowedSenders: input.allowedSenders,
    internal: { threadId: mail.threadId ?? undefined, headers },
  });
}
