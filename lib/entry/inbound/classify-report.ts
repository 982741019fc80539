import type { EventCode } from "@/lib/records/timeline/event-codes.shared";
import { unclassified, type ClassifiedEvent } from "./classified-event";
import type { DsnRecipient, InboundReport } from "./parse-report";
import { classifyText } from "./text-rules";

const BOUNCE: EventCode = "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT";
const DELAYED: EventCode = "EMAIL_MESSAGE_DELIVERY_DELAYED_PROVIDER_EVENT";
const UNCLASSIFIED: EventCode = "EMAIL_MESSAGE_UNCLASSIFIED_PROVIDER_EVENT";
/** ARF feedback types that are a recipient's complaint (RFC 5965 §7.3); auth-failure and not-spam are not. */
const COMPLAINT_TYPES = new Set(["abuse", "fraud", "virus", "other"]);

/**
 * A report's timeline events, never none (docs/delivery.md#bounces-from-any-smtp-relay): DSN per recipient (5.x.x
 * permanent and suppressed but 5.2.2 mailbox full; 4.x.x delayed), ARF complaints, else text-rules.ts.
 */
export function classifyReport(report: InboundReport): ClassifiedEvent[] {
  if (report.kind === "dsn") {
    const events = report.recipients.map((recipient, index) => dsnEvent(report, recipient, index));
    return events.length ? events : [unclassified(report, "A delivery status report with no recipient in it")];
  }
  if (report.kind === "arf") return [arfEvent(report)];
  return [classifyText(report)];
}

function dsnEvent(report: InboundReport & { kind: "dsn" }, entry: DsnRecipient, index: number): ClassifiedEvent {
  const who = entry.recipient || "a recipient";
  // "550 5.1.1 <ada@…>: User unknown" already says 5.1.1; otherwise the status leads.
  const repeated = entry.status && entry.diagnostic?.includes(entry.status);
  const because =
    (repeated ? entry.diagnostic! : [entry.status, entry.diagnostic].filter(Boolean).join(" ")).trim() ||
    "no diagnostic given";
  const by = report.reportingMta ? `, reported by ${report.reportingMta}` : "";
  const details = {
    action: entry.action,
    status: entry.status,
    diagnosticCode: entry.diagnostic,
    finalRecipient: entry.recipient || null,
    remoteMta: entry.remoteMta,
    reportingMta: report.reportingMta,
    reportSubject: report.subject,
  };
  const base = {
    type: `dsn-${entry.action || "unknown"}`,
    key: `${index}:${entry.recipient.toLowerCase()}`,
    recipients: entry.recipient ? [entry.recipient] : undefined,
    details,
  };
  const statusClass = entry.status?.[0];
  if (entry.action === "failed" && statusClass === "5" && entry.status !== "5.2.2") {
    return {
      ...base,
      code: BOUNCE,
      suppress: "HARD_BOUNCE",
      message: `Bounced (Permanent) for ${who}: ${because}${by}.`,
      details: { ...details, bounceType: "Permanent" },
    };
  }
  if (entry.action === "failed" && entry.status === "5.2.2") {
    return {
      ...base,
      code: BOUNCE,
      message: `Bounced (Transient) for ${who}: ${because}${by}. Not suppressed: a full mailbox is temporary.`,
      details: { ...details, bounceType: "Transient" },
    };
  }
  if (entry.action === "failed" && statusClass === "4") {
    // A temporary failure the relay stopped retrying: the address is not known to be bad.
    return {
      ...base,
      code: DELAYED,
      message: `Delivery to ${who} failed temporarily and the relay stopped trying: ${because}${by}. Not suppressed.`,
    };
  }
  if (entry.action === "delayed") {
    return {
      ...base,
      code: DELAYED,
      message: `Delivery to ${who} is delayed: ${because}${by}; the relay keeps trying.`,
    };
  }
  if (["delivered", "relayed", "expanded"].includes(entry.action)) {
    const how =
      entry.action === "delivered"
        ? "Delivered to"
        : entry.action === "relayed"
          ? "Relayed onwards (no further reports) for"
          : "Delivered to a list (expanded) for";
    return {
      ...base,
      code: "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
      message: `${how} ${who}${entry.remoteMta ? ` by ${entry.remoteMta}` : ""}${by}.`,
    };
  }
  return {
    ...base,
    code: UNCLASSIFIED,
    message: `A delivery status report for ${who} with action "${entry.action || "none"}" and status ${entry.status ?? "none"}${by}; not classified.`,
  };
}

function arfEvent(report: InboundReport & { kind: "arf" }): ClassifiedEvent {
  const feedbackType = report.feedbackType || "unknown";
  const recipients = report.originalRecipients.length ? report.originalRecipients : undefined;
  const who = recipients ? recipients.join(", ") : "the recipient";
  const via = report.userAgent ? ` (feedback loop: ${report.userAgent})` : "";
  const details = {
    feedbackType,
    userAgent: report.userAgent,
    originalRecipients: report.originalRecipients,
    sourceIp: report.sourceIp,
    reportSubject: report.subject,
  };
  if (COMPLAINT_TYPES.has(feedbackType)) {
    return {
      code: "EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT",
      type: "arf",
      key: "arf",
      suppress: "COMPLAINT",
      recipients,
      message: `Complaint (${feedbackType}) from ${who}${via}.`,
      details,
    };
  }
  return {
    code: UNCLASSIFIED,
    type: "arf",
    key: "arf",
    recipients,
    message: `A feedback report of type "${feedbackType}" about ${who}${via}; not a complaint, nothing suppressed.`,
    details,
  };
}
