import { randomUUID } from "node:crypto";
import { addressList } from "./mime-addresses";
import { attachmentPart, multipart, type Part, textPart } from "./mime-parts";
import { messageIdHeader } from "@/lib/foundation/addresses/sender-address.shared";
import { headerField, unstructuredValue } from "./mime-words";

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
  /** A reply's parent (the reply API, docs/inbound.md#the-reply-api): one `<id@domain>`. */
  inReplyTo?: string | null;
  /** An inbound forward's hop count (docs/inbound.md#loops): this many X-Postwerk-Loop headers. */
  loopHops?: number;
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

// Far above INBOUND_MAX_HOPS: a stored count can never blow a header block up.
const MAX_LOOP_HEADERS = 50;

/** The MIME in one synchronous pass, as nodemailer's MailComposer wrote it (the tests compare both parsed). */
export async function buildMime(messageId: string, fields: MailFields, date: Date = new Date()): Promise<BuiltMime> {
  const header = messageIdHeader(messageId, fields.from);
  const from = addressList([fields.from]);
  const to = addressList(fields.to);
  const cc = addressList(fields.cc);
  const replyTo = addressList(fields.replyTo ? [fields.replyTo] : []);
  const envelopeFrom = from.addresses[0] ?? replyTo.addresses[0];
  if (!envelopeFrom) throw new Error(`The sender "${fields.from}" has no address.`);
  const headers: string[] = [];
  if (fields.listUnsubscribe) {
    headers.push(headerField("List-Unsubscribe", unstructuredValue(`<${fields.listUnsubscribe}>`)));
    headers.push("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
  }
  addField(headers, "From", from.header);
  addField(headers, "To", to.header);
  addField(headers, "Cc", cc.header);
  addField(headers, "Reply-To", replyTo.header);
  addField(headers, "In-Reply-To", references(fields.inReplyTo ?? ""));
  addField(headers, "References", references(fields.references ?? ""));
  addField(headers, "Subject", unstructuredValue(fields.subject));
  for (let hop = 0; hop < Math.min(fields.loopHops ?? 0, MAX_LOOP_HEADERS); hop++)
    headers.push("X-Postwerk-Loop: forwarded");
  // A msg-id is structured (no encoded-words): what cannot appear in a header at all is dropped.
  headers.push(
    headerField("Message-ID", header.replace(/\r?\n|\r/g, " ").replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, "")),
  );
  headers.push(`Date: ${date.toUTCString().replace(/GMT/, "+0000")}`);
  const body = messageBody(fields);
  headers.push(...body.headers, "MIME-Version: 1.0", headerField("Content-Type", body.contentType));
  const raw = `${headers.join("\r\n")}\r\n\r\n${body.body}`;
  return {
    raw: raw.endsWith("\n") ? raw : `${raw}\r\n`,
    envelope: {
      from: envelopeFrom,
      to: [...new Set([...to.addresses, ...cc.addresses, ...addressList(fields.bcc).addresses])],
    },
    messageIdHeader: header,
  };
}

/** A field with a value, folded; none for an empty value (no Cc, no Reply-To…). */
function addField(headers: string[], key: string, value: string): void {
  if (value.trim()) headers.push(headerField(key, value));
}

/** Space-separated `<msg-id>`s, inner whitespace removed and missing brackets added (MimeNode's rule). */
function references(value: string): string {
  const cleaned = value
    .replace(/\r?\n|\r/g, " ")
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, "")
    .trim();
  if (!cleaned) return "";
  let closed = "";
  let at = 0;
  for (let open = cleaned.indexOf("<"); open >= 0; open = cleaned.indexOf("<", at)) {
    const close = cleaned.indexOf(">", open + 1);
    if (close < 0) break;
    closed += cleaned.slice(at, open) + cleaned.slice(open, close + 1).replace(/\s/g, "");
    at = close + 1;
  }
  closed += cleaned.slice(at);
  return closed
    .split(/\s+/)
    .map((id) => `${id.startsWith("<") ? "" : "<"}${id}${id.endsWith(">") ? "" : ">"}`)
    .join(" ");
}

/** MailComposer's tree: text/HTML alternatives, `cid` parts related to the HTML, other attachments mixed after. */
function messageBody(fields: MailFields): Part {
  const base = randomUUID().replaceAll("-", "").slice(0, 16);
  let multiparts = 0;
  const boundary = () => `--_NmP-${base}-Part_${++multiparts}`;
  const files = fields.attachments.map((attachment, index) => ({
    related: !!(fields.html && attachment.cid),
    part: attachmentPart(attachment, index),
  }));
  const related = files.filter((file) => file.related).map((file) => file.part);
  const attached = files.filter((file) => !file.related).map((file) => file.part);
  const alternatives: Part[] = [];
  if (fields.text) alternatives.push(textPart("plain", fields.text));
  if (fields.html) {
    const html = textPart("html", fields.html);
    alternatives.push(related.length ? multipart("related", boundary(), [html, ...related]) : html);
  }
  const content = alternatives.length > 1 ? [multipart("alternative", boundary(), alternatives)] : alternatives;
  if (attached.length > 1 || (content.length && attached.length === 1))
    return multipart("mixed", boundary(), [...content, ...attached]);
  return content[0] ?? attached[0] ?? textPart("plain", "");
}
