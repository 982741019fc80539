import type { AddressObject, Attachment, EmailAddress, ParsedMail } from "mailparser";
import type { SendDraft } from "@/lib/sending/parse-send-request";
import { SmtpReply } from "./smtp-reply";

/** Headers for what SMTP cannot say (docs/api.md#smtp-headers), mapped to SendDraft fields; never delivered. */
export const OPTION_HEADERS: Record<string, { field: keyof SendDraft; json?: "object" | "boolean" }> = {
  "x-postwerk-template-id": { field: "templateId" },
  "x-postwerk-variables": { field: "variables", json: "object" },
  "x-postwerk-meta-id": { field: "metaId" },
  "x-postwerk-group-key": { field: "groupKey" },
  "x-postwerk-metadata": { field: "metadata", json: "object" },
  "x-postwerk-scheduled-at": { field: "scheduledAt" },
  "x-postwerk-reply-tracking": { field: "replyTracking", json: "boolean" },
  "x-postwerk-locale": { field: "locale" },
};

const refuse = (text: string) => new SmtpReply(550, `5.6.0 ${text}`);

/**
 * The one mapping from a submitted mail to the send command (docs/api.md#smtp-submission). Envelope recipients in no
 * header become Bcc; a header recipient missing from the envelope is refused, as SMTP mail goes to the envelope only.
 */
export function mailToSendDraft(mail: ParsedMail, envelopeRecipients: string[]): SendDraft {
  const to = addresses(mail.to);
  const cc = addresses(mail.cc);
  const headerBcc = addresses(mail.bcc);
  const envelope = new Set(envelopeRecipients.map((address) => address.toLowerCase()));
  const named = new Set([...to, ...cc, ...headerBcc].map((entry) => entry.address.toLowerCase()));
  const missing = [...named].find((address) => !envelope.has(address));
  if (missing)
    throw new SmtpReply(
      550,
      `5.1.0 ${missing} is named in the headers but not given in RCPT TO; SMTP mail goes to the envelope recipients only.`,
    );
  const blindOnly = envelopeRecipients.filter((address) => !named.has(address.toLowerCase()));
  const sender = addresses(mail.from)[0];
  if (!sender) throw refuse("The message has no From header.");
  const draft: SendDraft = {
    from: sender.entry,
    to: to.map((entry) => entry.entry),
    cc: cc.map((entry) => entry.entry),
    bcc: [...headerBcc.map((entry) => entry.entry), ...blindOnly],
    ...optionHeaders(mail),
  };
  const replyTo = addresses(mail.replyTo).map((entry) => entry.entry);
  if (replyTo.length > 0) draft.replyTo = replyTo;
  const tags = tagHeaders(mail);
  if (tags.length > 0) draft.tags = tags;
  const references = threadReferences(mail);
  if (references) draft.headers = { references };
  if (draft.templateId !== undefined) return draft; // the template renders subject and bodies; the mail's are not used
  if (!mail.subject?.trim())
    throw refuse("The message has no Subject header; it is required, as for the API's subject.");
  draft.subject = mail.subject;
  // Plain-text mail is sent as text with its HTML twin (the API's bodyHtml is required).
  draft.bodyHtml = typeof mail.html === "string" && mail.html.trim() ? mail.html : mail.textAsHtml?.trim() || "<p></p>";
  if (mail.text !== undefined) draft.bodyText = mail.text;
  draft.attachments = mail.attachments.map(attachmentInput);
  return draft;
}

interface NamedAddress {
  address: string;
  /** As the API takes it and a person writes it: `Name <address>`, `"Name, Inc." <address>` or the bare address. */
  entry: string;
}

function addresses(field: AddressObject | AddressObject[] | undefined): NamedAddress[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return objects.flatMap((object) => flatten(object.value));
}

/** Group syntax (`Team: a@x, b@y;`) lists its members; an empty group (`undisclosed-recipients:;`) none. */
function flatten(values: EmailAddress[]): NamedAddress[] {
  return values.flatMap((value) => {
    if (value.group) return flatten(value.group);
    if (!value.address) return [];
    const name = value.name?.replace(/[\r\n]+/g, " ").trim();
    return [{ address: value.address, entry: name ? `${displayName(name)} <${value.address}>` : value.address }];
  });
}

/** RFC 5322 atoms (RFC 6532: UTF-8 too) separated by single spaces need no quotes. */
const PLAIN_PHRASE =
  /^[\p{L}\p{N}!#$%&'*+\-/=?^_`{|}~\u0080-\u{10FFFF}]+(?: [\p{L}\p{N}!#$%&'*+\-/=?^_`{|}~\u0080-\u{10FFFF}]+)*$/u;

/** As the API would have been given it, so a message stores the same entries whichever door it came through. */
function displayName(name: string): string {
  return PLAIN_PHRASE.test(name) ? name : `"${name.replace(/(["\\])/g, "\\$1")}"`;
}

function optionHeaders(mail: ParsedMail): Partial<SendDraft> {
  const options: Record<string, unknown> = {};
  for (const [name, { field, json }] of Object.entries(OPTION_HEADERS)) {
    const raw = mail.headers.get(name);
    if (raw === undefined) continue;
    const value = decodeEncodedWords(String(raw)).trim();
    options[field] =
      json === "object" ? parseJsonObject(value, name) : json === "boolean" ? parseBoolean(value, name) : value;
  }
  return options as Partial<SendDraft>;
}

/** One `X-Postwerk-Tag: name:value` header per tag (a value may hold commas, so no list header); never delivered. */
function tagHeaders(mail: ParsedMail): string[] {
  const raw = mail.headers.get("x-postwerk-tag");
  if (raw === undefined) return [];
  return (Array.isArray(raw) ? raw : [raw]).map((value) => decodeEncodedWords(String(value)).trim());
}

const ENCODED_WORD = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;

/** mailparser leaves encoded-words in headers it does not know, and clients encode JSON values so. */
export function decodeEncodedWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(ENCODED_WORD, (word, charset: string, encoding: string, text: string) => {
      const bytes =
        encoding.toUpperCase() === "B"
          ? Buffer.from(text, "base64")
          : Buffer.from(
              text
                .replace(/_/g, " ")
                .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
              "latin1",
            );
      try {
        return new TextDecoder(charset.replace(/\*.*$/, "")).decode(bytes);
      } catch {
        return word;
      }
    });
}

function parseBoolean(value: string, header: string): boolean {
  if (/^true$/i.test(value)) return true;
  if (/^false$/i.test(value)) return false;
  throw refuse(`The ${headerName(header)} header must be true or false.`);
}

function parseJsonObject(value: string, header: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw refuse(`The ${headerName(header)} header must be a JSON object; it is not valid JSON.`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw refuse(`The ${headerName(header)} header must be a JSON object.`);
  return parsed as Record<string, unknown>;
}

const headerName = (lower: string) =>
  lower.replace(/(^|-)([a-z])/g, (_m, dash: string, letter: string) => dash + letter.toUpperCase());

/** References, with In-Reply-To appended when it is not among them (the API carries References only). */
function threadReferences(mail: ParsedMail): string | null {
  const references =
    mail.references === undefined ? [] : Array.isArray(mail.references) ? mail.references : [mail.references];
  const ids = references.flatMap((value) => value.split(/\s+/)).filter(Boolean);
  const parent = mail.inReplyTo?.trim();
  if (parent && !ids.includes(parent)) ids.push(parent);
  return ids.length > 0 ? ids.slice(-50).join(" ") : null;
}

const MIME_TYPE = /^[\w.+-]+\/[\w.+-]+$/;

function attachmentInput(attachment: Attachment, index: number): NonNullable<SendDraft["attachments"]>[number] {
  const cid = attachment.contentId?.replace(/^<|>$/g, "") || attachment.cid;
  return {
    name: attachment.filename?.slice(0, 255) || `attachment-${index + 1}`,
    contentType: MIME_TYPE.test(attachment.contentType) ? attachment.contentType : "application/octet-stream",
    contentBlob: attachment.content.toString("base64"),
    ...(cid ? { cid } : {}),
  };
}
