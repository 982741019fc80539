import MailComposer from "nodemailer/lib/mail-composer";
import { messageIdHeader } from "./mime.shared";

/** The stored message's content as delivery needs it (entries of to/cc/bcc as given: `addr` or `Name <addr>`). */
export interface MailFields {
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string | null;
  subject: string;
  html: string;
  text: string;
  /** The message's `headers.references`: one or more `<id@domain>`, space separated. */
  references: string | null;
  attachments: MimeAttachment[];
  /** Group mail: the RFC 8058 one-click URL, sent as List-Unsubscribe with List-Unsubscribe-Post. */
  listUnsubscribe?: string | null;
}

export interface MimeAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  /** Set for an inline part referenced from the HTML as `cid:…`. */
  cid?: string;
}

export interface BuiltMime {
  /** The exact RFC 5322 message (CRLF line ends), as a provider would put it on the wire. */
  raw: string;
  /** SMTP envelope: every to, cc and bcc address, though Bcc never appears in the headers. */
  envelope: { from: string; to: string[] };
  /** `<em_…@sending-domain>` */
  messageIdHeader: string;
}

/**
 * Builds the real MIME message with nodemailer's MailComposer: Message-ID `<{messageId}@{sending
 * domain}>`, From, Reply-To, To, Cc, References, Date, List-Unsubscribe (group mail), text and HTML as
 * alternatives, attachments.
 */
export async function buildMime(messageId: string, fields: MailFields, date: Date = new Date()): Promise<BuiltMime> {
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
