import { isUtf8 } from "node:buffer";
import {
  buildHeaderValue,
  detectExtension,
  detectMimeType,
  encodeWord,
  encodeWords,
  parseHeaderValue,
  qpEncode,
  qpWrap,
} from "@/internals/nodemailer";
import type { MimeAttachment } from "./build-mime";
import { headerField, wordEncoding } from "./mime-words";

/** One MIME part before serialization: its Content-Type value, its other header fields (folded), its encoded body. */
export interface Part {
  contentType: string;
  headers: string[];
  body: string;
}

const CONTROL = /[\x00-\x1f\x7f]/g;

/** The part's header block and body, as a child of a multipart (the root adds its message headers). */
export function serializePart(part: Part): string {
  return `${[headerField("Content-Type", part.contentType), ...part.headers].join("\r\n")}\r\n\r\n${part.body}`;
}

/** The boundary is quoted (it starts with `-`) and never occurs in encoded content. */
export function multipart(subtype: string, boundary: string, children: Part[]): Part {
  let body = "";
  for (let i = 0; i < children.length; i++)
    body += `${i > 0 ? "\r\n" : ""}--${boundary}\r\n${serializePart(children[i])}`;
  const type = subtype === "related" ? 'multipart/related; type="text/html"' : `multipart/${subtype}`;
  return { contentType: `${type}; boundary="${boundary}"`, headers: [], body: `${body}\r\n--${boundary}--\r\n` };
}

/** Every line break as CRLF: SMTP sends them so anyway, and DKIM hashes the body as sent. */
export function crlf(text: string): string {
  return /\r(?!\n)|(?<!\r)\n/.test(text) ? text.replace(/\r\n|\r|\n/g, "\r\n") : text;
}

/** 7bit when printable ASCII in lines of ≤76; else quoted-printable for mostly Latin text, base64 otherwise. */
export function textPart(subtype: "plain" | "html", text: string): Part {
  if (!text) return { contentType: `text/${subtype}`, headers: [], body: "" };
  const contentType = `text/${subtype}; charset=utf-8`;
  const body = crlf(text);
  const plain = !/[\x00-\x08\x0b\x0c\x0e-\x1f\u0080-\uFFFF]/.test(body);
  if (plain && !hasLongLines(body)) return { contentType, headers: ["Content-Transfer-Encoding: 7bit"], body };
  if (wordEncoding(body) === "Q")
    return { contentType, headers: ["Content-Transfer-Encoding: quoted-printable"], body: qpWrap(qpEncode(body), 76) };
  return { contentType, headers: ["Content-Transfer-Encoding: base64"], body: base64Lines(Buffer.from(body, "utf8")) };
}

/** A line over 76 characters; a text over 128 KiB counts as having one without the scan (MimeNode's rule). */
function hasLongLines(text: string): boolean {
  return text.length > 128 * 1024 || /^.{77,}/m.test(text);
}

export function base64Lines(content: Buffer): string {
  const encoded = content.toString("base64");
  if (encoded.length <= 76) return encoded;
  const lines: string[] = [];
  for (let at = 0; at < encoded.length; at += 76) lines.push(encoded.slice(at, at + 76));
  return lines.join("\r\n");
}

/**
 * An attachment part as MailComposer made it. A message/* part cannot be encoded (RFC 2046 5.2.1), so it goes
 * inline as text; a multipart/* type would need parts of its own, so it goes as application/octet-stream.
 */
export function attachmentPart(attachment: MimeAttachment, index: number): Part {
  let type = attachment.contentType || detectMimeType(attachment.filename || "bin");
  if (/^multipart\//i.test(type)) type = "application/octet-stream";
  // A message/* part goes as text; bytes that are not UTF-8 (a Latin-1 8-bit body) would be mangled.
  if (/^message\//i.test(type) && !isUtf8(attachment.content)) type = "application/octet-stream";
  const isMessage = /^message\//i.test(type);
  let filename = attachment.filename;
  if (!filename && !isMessage) {
    filename = `attachment-${index + 1}`;
    if (!filename.includes(".")) filename += `.${detectExtension(type)}`;
  }
  const headers: string[] = [];
  if (attachment.cid) headers.push(headerField("Content-ID", contentId(attachment.cid)));
  const transferEncoding = isMessage ? (fitsSevenBit(attachment.content) ? "7bit" : "8bit") : "base64";
  headers.push(`Content-Transfer-Encoding: ${transferEncoding}`);
  const disposition = isMessage || (/^image\//i.test(type) && attachment.cid) ? "inline" : "attachment";
  const dispositionValue = buildHeaderValue({ value: disposition, params: filename ? { filename } : {} });
  headers.push(headerField("Content-Disposition", oneLine(dispositionValue)));
  const body = isMessage ? crlf(attachment.content.toString("utf8")) : base64Lines(attachment.content);
  return { contentType: oneLine(attachmentContentType(type, filename)), headers, body };
}

/** The declared type (comments and control characters dropped, any `name` replaced) with the file's `name=`. */
function attachmentContentType(type: string, filename: string | undefined): string {
  const structured = parseHeaderValue(type, { stripComments: true });
  structured.value = (structured.value || "").replace(CONTROL, "");
  if (!filename) return buildHeaderValue(structured);
  for (const key of Object.keys(structured.params)) if (/^name(\*|$)/i.test(key)) delete structured.params[key];
  // `name=` is not RFC 2231-encoded: clients that ignore filename= (QQ webmail) read encoded-words.
  let name = /[\x00-\x1f\x7f]/.test(filename)
    ? encodeWord(filename, wordEncoding(filename), 52)
    : encodeWords(filename, wordEncoding(filename), 52, true);
  if (name !== filename || /[\s'"\\;:/=(),<>@[\]?]|^-/.test(name)) name = JSON.stringify(name);
  return `${buildHeaderValue(structured)}; name=${name}`;
}

function contentId(cid: string): string {
  return `<${cid
    .replace(/[<>]/g, "")
    .replace(/\r?\n|\r/g, " ")
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, "")}>`;
}

const oneLine = (value: string) => value.replace(/\r?\n|\r/g, " ");

/** ASCII without NUL in lines of at most 998 octets: what a 7bit label may describe. */
function fitsSevenBit(content: Buffer): boolean {
  let line = 0;
  for (const byte of content) {
    if (byte === 0 || byte > 0x7f) return false;
    if (byte === 0x0a || byte === 0x0d) line = 0;
    else if (++line > 998) return false;
  }
  return true;
}
