import { convert } from "html-to-text";
import { simpleParser, type AddressObject, type Attachment, type ParsedMail } from "mailparser";
import { splitHeaderLine } from "./decode-header";
import { stripReply } from "./strip-reply";
import { LOOP_HEADER, type InboundAddress, type ParsedAttachment, type ParsedInbound } from "./types";

/** Headers kept per mail: enough for any real mail, bounded for a hostile one. */
export const MAX_HEADERS = 200;
const MAX_REFERENCES = 500;
/** An RFC 5322 msg-id: id-left "@" id-right in angle brackets; other tokens are no ids. */
const MESSAGE_ID = /<[^<>\s@]{1,500}@[^<>\s]{1,500}>/g;

/**
 * One inbound mail, parsed once before it is stored (docs/inbound.md#parsing). Never throws: bytes that are no
 * valid MIME give what could be read (subject "", no from). Addresses are lower-cased; a content id is given
 * without its angle brackets, as `cid:` URLs name it.
 */
export async function parseInbound(raw: Buffer): Promise<ParsedInbound> {
  let mail: ParsedMail | null = null;
  try {
    mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
  } catch {
    mail = null; // mailparser gave up: the mail is still stored, with what we know
  }
  if (!mail) return emptyParse(raw);
  const html = typeof mail.html === "string" ? mail.html : null;
  // mailparser gives "" for an HTML-only mail: there is no text body then.
  const text = mail.text || (html === null ? (mail.text ?? null) : null);
  const stripped = stripReply(text || (html ? htmlText(html) : ""));
  const headers = headerPairs(mail);
  return {
    from: addresses(mail.from)[0] ?? null,
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    replyTo: addresses(mail.replyTo),
    subject: mail.subject ?? "",
    date: mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : null,
    messageId: messageIds(mail.messageId)[0] ?? null,
    inReplyTo: messageIds(mail.inReplyTo)[0] ?? null,
    references: messageIds(mail.references).slice(0, MAX_REFERENCES),
    text,
    html,
    strippedText: stripped.reply,
    strippedSignature: stripped.signature,
    headers: headers.slice(0, MAX_HEADERS),
    attachments: mail.attachments.map(attachment),
    sizeBytes: raw.length,
    hopCount: headers.filter(([name]) => name.toLowerCase() === LOOP_HEADER.toLowerCase()).length,
  };
}

function emptyParse(raw: Buffer): ParsedInbound {
  return {
    from: null,
    to: [],
    cc: [],
    replyTo: [],
    subject: "",
    date: null,
    messageId: null,
    inReplyTo: null,
    references: [],
    text: null,
    html: null,
    strippedText: "",
    strippedSignature: null,
    headers: [],
    attachments: [],
    sizeBytes: raw.length,
    hopCount: 0,
  };
}

/** The text a reader sees in the HTML; blockquotes come out as "> " lines, so stripReply drops them. */
function htmlText(html: string): string {
  try {
    return convert(html, {
      wordwrap: false,
      selectors: [
        { selector: "a", options: { ignoreHref: true } },
        { selector: "img", format: "skip" },
      ],
    });
  } catch {
    return "";
  }
}

function headerPairs(mail: ParsedMail): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const { line } of mail.headerLines) {
    const pair = splitHeaderLine(line);
    if (pair) pairs.push(pair);
  }
  return pairs;
}

function addresses(value: AddressObject | AddressObject[] | undefined): InboundAddress[] {
  const out: InboundAddress[] = [];
  const visit = (entries: Array<{ address?: string; name: string; group?: unknown[] }>) => {
    for (const entry of entries) {
      if (entry.group) visit(entry.group as typeof entries);
      else if (entry.address) out.push({ address: entry.address.toLowerCase(), name: entry.name || null });
    }
  };
  for (const object of Array.isArray(value) ? value : value ? [value] : []) visit(object.value);
  return out;
}

/** "<id@host>" tokens, in order; a bare id@host (no brackets) is given its brackets. */
function messageIds(value: string | string[] | undefined): string[] {
  const joined = Array.isArray(value) ? value.join(" ") : (value ?? "");
  const found = joined.match(MESSAGE_ID);
  if (found) return found;
  const bare = joined.trim();
  return /^[^\s<>@]{1,500}@[^\s<>]{1,500}$/.test(bare) ? [`<${bare}>`] : [];
}

function attachment(part: Attachment): ParsedAttachment {
  return {
    filename: part.filename ?? "attachment",
    contentType: part.contentType || "application/octet-stream",
    size: part.size ?? part.content.length,
    contentId: part.cid ?? null,
    content: part.content,
    inline: part.contentDisposition === "inline" || part.related === true,
  };
}
