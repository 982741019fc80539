import { createHash } from "node:crypto";
import {
  decodeWords,
  first,
  parseFieldGroups,
  parseFields,
  parseMime,
  partText,
  walk,
  type HeaderFields,
  type MimePart,
} from "./mime-tree";

/** One per-recipient group of an RFC 3464 delivery-status report. */
export interface DsnRecipient {
  /** Final-Recipient (or Original-Recipient), the bare address. */
  recipient: string;
  /** failed, delayed, delivered, relayed, expanded (lowercase). */
  action: string;
  /** The enhanced status code, e.g. 5.1.1, or null. */
  status: string | null;
  /** Diagnostic-Code without its type ("smtp; "), or null. */
  diagnostic: string | null;
  remoteMta: string | null;
}

/** The headers of the message a report is about (its attached copy or headers), when present. */
export interface OriginalMessage {
  messageId: string | null;
  returnPath: string | null;
  to: string | null;
}

interface ReportBase {
  /** Stable per report: its Message-ID, or a hash of its bytes; the same report twice has the same key. */
  key: string;
  subject: string;
  from: string;
  date: Date | null;
  /** RFC 3834 Auto-Submitted: auto-replied (or a vacation responder's markers) on a report that is no DSN or ARF. */
  autoReply: boolean;
  original: OriginalMessage | null;
  /** The human-readable text (first text part), at most 16 KB. */
  text: string;
}

export type InboundReport =
  | (ReportBase & { kind: "dsn"; reportingMta: string | null; recipients: DsnRecipient[] })
  | (ReportBase & {
      kind: "arf";
      feedbackType: string;
      userAgent: string | null;
      originalRecipients: string[];
      sourceIp: string | null;
    })
  | (ReportBase & { kind: "text" });

const MAX_TEXT = 16 * 1024;
/** Per-recipient groups read from one DSN: a message has at most 150 recipients (50 each in to, cc, bcc). */
const MAX_DSN_RECIPIENTS = 150;

/** Reads a received report (the raw message) into what classification needs. Never throws. */
export function parseReport(raw: Buffer): InboundReport {
  const root = parseMime(raw.toString("latin1"));
  const parts = walk(root);
  const messageId = first(root.headers, "message-id");
  const base: ReportBase = {
    key: createHash("sha256")
      .update(messageId ? `id:${messageId}` : raw)
      .digest("hex")
      .slice(0, 32),
    subject: decodeWords(first(root.headers, "subject") ?? "").slice(0, 500),
    from: decodeWords(first(root.headers, "from") ?? "").slice(0, 500),
    date: readDate(first(root.headers, "date")),
    autoReply: isAutoReply(root.headers),
    original: readOriginal(parts),
    text: readText(parts),
  };
  const reportType = root.type === "multipart/report" ? (root.params["report-type"] ?? "").toLowerCase() : "";
  const status = parts.find(
    (part) => part.type === "message/delivery-status" || part.type === "message/global-delivery-status",
  );
  if (status && (reportType === "delivery-status" || reportType === ""))
    return { ...base, kind: "dsn", ...readDeliveryStatus(status) };
  const feedback = parts.find((part) => part.type === "message/feedback-report");
  if (feedback) return { ...base, kind: "arf", ...readFeedback(feedback) };
  return { ...base, kind: "text" };
}

function readDeliveryStatus(part: MimePart): { reportingMta: string | null; recipients: DsnRecipient[] } {
  const [perMessage, ...groups] = parseFieldGroups(partText(part));
  const perRecipient = groups.slice(0, MAX_DSN_RECIPIENTS * 2);
  const recipients = perRecipient
    .map((group) => ({
      recipient: address(first(group, "final-recipient") ?? first(group, "original-recipient")),
      action: (first(group, "action") ?? "").toLowerCase().split(/\s/)[0],
      status: /\d\.\d{1,3}\.\d{1,3}/.exec(first(group, "status") ?? "")?.[0] ?? null,
      diagnostic: typed(first(group, "diagnostic-code")),
      remoteMta: typed(first(group, "remote-mta")),
    }))
    .filter((entry) => entry.recipient || entry.action)
    .slice(0, MAX_DSN_RECIPIENTS);
  return { reportingMta: typed(perMessage ? first(perMessage, "reporting-mta") : undefined), recipients };
}

function readFeedback(part: MimePart) {
  const fields = parseFields(partText(part));
  return {
    feedbackType: (first(fields, "feedback-type") ?? "").toLowerCase().trim(),
    userAgent: first(fields, "user-agent") ?? null,
    originalRecipients: (fields.get("original-rcpt-to") ?? []).map(address).filter(Boolean),
    sourceIp: first(fields, "source-ip") ?? null,
  };
}

function readOriginal(parts: MimePart[]): OriginalMessage | null {
  const copy = parts.find((part) =>
    [
      "message/rfc822",
      "text/rfc822-headers",
      "message/rfc822-headers",
      "message/global",
      "message/global-headers",
    ].includes(part.type),
  );
  if (!copy) return null;
  const text = copy.type.endsWith("headers") ? partText(copy) : copy.body;
  const split = text.search(/\r?\n\r?\n/);
  const headers = parseFields(split < 0 ? text : text.slice(0, split));
  return {
    messageId: first(headers, "message-id") ?? null,
    returnPath: first(headers, "return-path") ?? null,
    to: first(headers, "to") ?? null,
  };
}

function readText(parts: MimePart[]): string {
  const textPart = parts.find(
    (part) => part.type === "text/plain" && !/attachment/i.test(first(part.headers, "content-disposition") ?? ""),
  );
  const htmlPart = textPart ? undefined : parts.find((part) => part.type === "text/html");
  const text = textPart
    ? partText(textPart)
    : htmlPart
      ? partText(htmlPart)
          .replace(/<[^>]*>/g, " ")
          .replace(/&nbsp;/g, " ")
      : "";
  return text.slice(0, MAX_TEXT);
}

/** RFC 3834 and the common vacation-responder markers (Exchange, Gmail, Yahoo). */
function isAutoReply(headers: HeaderFields): boolean {
  const auto = (first(headers, "auto-submitted") ?? "").toLowerCase();
  const precedence = (first(headers, "precedence") ?? "").toLowerCase();
  return (
    auto.startsWith("auto-replied") ||
    headers.has("x-autoreply") ||
    headers.has("x-autorespond") ||
    (first(headers, "x-auto-response-suppress") !== undefined &&
      /^(automatic reply|auto:|out of office)/i.test(first(headers, "subject") ?? "")) ||
    precedence === "auto_reply"
  );
}

function address(value: string | undefined): string {
  const bare = typed(value ?? undefined) ?? "";
  return bare.replace(/^<|>$/g, "").trim();
}

/** A typed DSN field (`smtp; 550 5.1.1 …`, `dns; mx.example.org`) without its type. */
function typed(value: string | undefined): string | null {
  if (!value) return null;
  const semi = value.indexOf(";");
  const rest = (semi >= 0 && /^[a-z0-9-]+$/i.test(value.slice(0, semi).trim()) ? value.slice(semi + 1) : value).trim();
  return rest ? rest.slice(0, 1000) : null;
}

function readDate(value: string | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value.slice(0, 200).replace(/\s*\([^)]*\)\s*$/, ""));
  return Number.isNaN(date.getTime()) ? null : date;
}
