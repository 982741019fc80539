import "server-only";
import { simpleParser, type AddressObject } from "mailparser";

export interface ParsedInboxMail {
  from: string;
  to: string;
  cc: string;
  replyTo: string;
  subject: string;
  date: Date | null;
  messageIdHeader: string;
  /** HTML with `cid:` parts inlined as data: URLs, so the sandboxed frame shows inline images. */
  html: string;
  text: string;
  attachments: { filename: string; contentType: string; size: number; inline: boolean }[];
}

/** `Name <address>` as people write it (mailparser's own text form quotes every name). */
const addresses = (value: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(value) ? value : value ? [value] : [])
    .flatMap((entry) => entry.value)
    .map((mailbox) => (mailbox.name ? `${mailbox.name} <${mailbox.address ?? ""}>` : (mailbox.address ?? "")))
    .join(", ");

/** As a mail client would, so the inbox shows what the recipient sees (tracking links, footer, headers), not the stored fields. */
export async function parseInboxMime(mime: string): Promise<ParsedInboxMail> {
  const mail = await simpleParser(mime);
  return {
    from: addresses(mail.from),
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    replyTo: addresses(mail.replyTo),
    subject: mail.subject ?? "",
    date: mail.date ?? null,
    messageIdHeader: mail.messageId ?? "",
    html: typeof mail.html === "string" ? mail.html : "",
    text: mail.text ?? "",
    attachments: mail.attachments.map((attachment) => ({
      filename: attachment.filename ?? "(unnamed)",
      contentType: attachment.contentType,
      size: attachment.size,
      inline: attachment.contentDisposition === "inline" || attachment.related === true,
    })),
  };
}
