import "server-only";
import { simpleParser } from "mailparser";
import type { SMTPServerDataStream, SMTPServerSession } from "smtp-server";
import { log } from "@/lib/foundation/log";
import { sendMessage } from "@/lib/sending/send-message";
import { mailToSendDraft } from "./mail-to-send-draft";
import { recordSmtpActivity } from "./record-smtp-activity";
import { SmtpReply, smtpReplyFor } from "./smtp-reply";
import { principalOf } from "./submission-handlers";

/**
 * DATA (docs/api.md#smtp-submission): read whole, mapped to the API's send command and accepted by its use case before
 * the reply, so a client that disconnects midway leaves nothing. Throws the refusal as an SmtpReply.
 */
export async function acceptSubmittedMail(
  stream: SMTPServerDataStream,
  session: SMTPServerSession,
  maxBytes: number,
): Promise<string> {
  const started = performance.now();
  const principal = principalOf(session);
  const raw = await readWhole(stream);
  // smtp-server answers 552 itself for an oversized message; this only makes sure nothing of it is kept.
  if (stream.sizeExceeded || raw === null)
    throw new SmtpReply(552, `5.3.4 The message is larger than ${maxBytes} bytes, the limit of this service.`);
  let draft: unknown = { size: raw.length };
  try {
    const mail = await simpleParser(raw, { keepCidLinks: true, skipHtmlToText: true, skipImageLinks: true });
    draft = mailToSendDraft(
      mail,
      session.envelope.rcptTo.map((recipient) => recipient.address),
    );
    const { message, replayed } = await sendMessage({
      workspaceId: principal.workspaceId,
      sandbox: principal.sandbox,
      body: draft,
      channel: "smtp",
    });
    const text = `2.0.0 OK ${message.id}${replayed ? " (metaId replay: the message accepted earlier)" : ""}`;
    recordSmtpActivity(principal, {
      step: "DATA",
      reply: { responseCode: 250, message: text },
      started,
      request: draft,
      resourceId: message.id,
    });
    return text;
  } catch (error) {
    const reply = smtpReplyFor(error);
    if (reply.responseCode === 451)
      log.warn("smtp submission: DATA failed", { error: error instanceof Error ? error.message : String(error) });
    recordSmtpActivity(principal, { step: "DATA", reply, started, request: draft });
    throw reply;
  }
}

/** The DATA bytes; null once over the limit (the rest is read and dropped, so the connection stays in step). */
async function readWhole(stream: SMTPServerDataStream): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    if (!stream.sizeExceeded) chunks.push(chunk as Buffer);
  }
  return stream.sizeExceeded ? null : Buffer.concat(chunks);
}
