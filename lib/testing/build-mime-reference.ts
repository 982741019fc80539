import MailComposer from "nodemailer/lib/mail-composer";
import type { BuiltMime, MailFields } from "@/lib/delivery/mime/build-mime";
import { messageIdHeader } from "@/lib/foundation/addresses/sender-address.shared";

/**
 * The builder build-mime.ts replaced: nodemailer's MailComposer, with the options buildMime passed
 * it. Not used for delivery; kept as the reference the tests compare buildMime against (parsed with
 * mailparser, both must read the same) and as the baseline of bench/support/build-mime.ts.
 */
export async function buildMimeWithMailComposer(
  messageId: string,
  fields: MailFields,
  date: Date = new Date(),
): Promise<BuiltMime> {
  const header = messageIdHeader(messageId, fields.from);
  const node = new MailComposer({
    messageId: header,
    date,
    from: fields.from,
    to: fields.to,
    cc: fields.cc.length ? fields.cc : undefined,
    bcc: fields.bcc.length ? fields.bcc : undefined,
    replyTo: fields.replyTo ?? undefined,
    references: fields.references ?? undefined,
    subject: fields.subject,
    text: fields.text,
    html: fields.html,
    attachments: fields.attachments.map((attachment) => ({
      filename: attachment.filename,
      contentType: attachment.contentType,
      content: attachment.content,
      cid: attachment.cid,
    })),
    headers: fields.listUnsubscribe
      ? { "List-Unsubscribe": `<${fields.listUnsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" }
      : undefined,
    disableFileAccess: true,
    disableUrlAccess: true,
  }).compile();
  // Read before build(): the envelope comes from the headers, Bcc included, and build() drops Bcc.
  const { from, to } = node.getEnvelope();
  if (!from) throw new Error(`The sender "${fields.from}" has no address.`);
  const raw = await node.build();
  return { raw: raw.toString("utf8"), envelope: { from, to }, messageIdHeader: header };
}
