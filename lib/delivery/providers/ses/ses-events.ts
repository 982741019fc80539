import { z } from "zod";
import type { EventCode } from "@/lib/records/timeline/event-codes.shared";

const recipientSchema = z.object({
  emailAddress: z.string(),
  action: z.string().optional(),
  status: z.string().optional(),
  diagnosticCode: z.string().optional(),
});

/** Both shapes SES publishes: configuration-set events (`eventType`) and notifications (`notificationType`). */
export const sesEventSchema = z
  .object({
    eventType: z.string().optional(),
    notificationType: z.string().optional(),
    mail: z
      .object({
        messageId: z.string().min(1),
        timestamp: z.string().min(1),
        tags: z.record(z.string(), z.array(z.string())).optional(),
      })
      .loose(),
    bounce: z
      .object({
        bounceType: z.string().optional(),
        bounceSubType: z.string().optional(),
        bouncedRecipients: z.array(recipientSchema).default([]),
        timestamp: z.string().optional(),
        reportingMTA: z.string().optional(),
      })
      .loose()
      .optional(),
    complaint: z
      .object({
        complainedRecipients: z.array(z.object({ emailAddress: z.string() })).default([]),
        timestamp: z.string().optional(),
        complaintFeedbackType: z.string().optional(),
        complaintSubType: z.string().nullish(),
        userAgent: z.string().optional(),
      })
      .loose()
      .optional(),
    delivery: z
      .object({
        timestamp: z.string().optional(),
        processingTimeMillis: z.number().optional(),
        recipients: z.array(z.string()).default([]),
        smtpResponse: z.string().optional(),
        reportingMTA: z.string().optional(),
        remoteMtaIp: z.string().optional(),
      })
      .loose()
      .optional(),
    reject: z.object({ reason: z.string().optional() }).loose().optional(),
    deliveryDelay: z
      .object({
        timestamp: z.string().optional(),
        delayType: z.string().optional(),
        expirationTime: z.string().optional(),
        delayedRecipients: z.array(recipientSchema).default([]),
        reportingMTA: z.string().optional(),
      })
      .loose()
      .optional(),
    open: z
      .object({ timestamp: z.string().optional(), ipAddress: z.string().optional(), userAgent: z.string().optional() })
      .loose()
      .optional(),
    click: z
      .object({
        timestamp: z.string().optional(),
        ipAddress: z.string().optional(),
        userAgent: z.string().optional(),
        link: z.string().optional(),
      })
      .loose()
      .optional(),
    failure: z.object({ errorMessage: z.string().optional(), templateName: z.string().optional() }).loose().optional(),
  })
  .loose();
export type SesEvent = z.infer<typeof sesEventSchema>;

export interface MappedSesEvent {
  type: string;
  code: EventCode;
  message: string;
  /** The event's own time (the bounce's, the delivery's…; the send's for Send, Reject, Rendering Failure). */
  at: Date;
  details: Record<string, unknown>;
  suppress?: "HARD_BOUNCE" | "COMPLAINT";
  recipients?: string[];
}

/** docs/delivery.md#ses-1 has the table. Null for events of no message's timeline or with an unreadable time. */
export function mapSesEvent(event: SesEvent): MappedSesEvent | null {
  const type = event.eventType ?? event.notificationType ?? "";
  const at = readTime(eventTime(type, event) ?? event.mail.timestamp);
  if (!at) return null;
  const mapped = mapByType(type, event, at.toISOString(), { sesMessageId: event.mail.messageId });
  return mapped ? { type, at, ...mapped } : null;
}

type Mapped = Omit<MappedSesEvent, "at" | "type">;

function eventTime(type: string, event: SesEvent): string | undefined {
  const own: Record<string, string | undefined> = {
    Delivery: event.delivery?.timestamp,
    Bounce: event.bounce?.timestamp,
    Complaint: event.complaint?.timestamp,
    DeliveryDelay: event.deliveryDelay?.timestamp,
    Open: event.open?.timestamp,
    Click: event.click?.timestamp,
  };
  return own[type];
}

function mapByType(type: string, event: SesEvent, when: string, base: Record<string, unknown>): Mapped | null {
  switch (type) {
    case "Send":
      return {
        code: "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
        message: `SES accepted the message at ${when}.`,
        details: base,
      };
    case "Delivery":
      return event.delivery ? mapDelivery(event.delivery, when, base) : null;
    case "Bounce":
      return event.bounce ? mapBounce(event.bounce, when, base) : null;
    case "Complaint":
      return event.complaint ? mapComplaint(event.complaint, when, base) : null;
    case "Reject": {
      const reason = event.reject?.reason ?? "no reason given";
      return {
        code: "EMAIL_MESSAGE_PROVIDER_ERROR",
        message: `SES rejected the message: ${reason}.`,
        details: { ...base, reason },
      };
    }
    case "DeliveryDelay":
      return event.deliveryDelay ? mapDelay(event.deliveryDelay, when, base) : null;
    case "Open": {
      const { ipAddress, userAgent } = event.open ?? {};
      return {
        code: "EMAIL_MESSAGE_OPEN_PROVIDER_EVENT",
        message: `Opened at ${when}${client(ipAddress, userAgent)}.`,
        details: { ...base, ipAddress, userAgent },
      };
    }
    case "Click": {
      const { ipAddress, userAgent, link } = event.click ?? {};
      return {
        code: "EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT",
        message: `Clicked ${link ?? "a link"} at ${when}${client(ipAddress, userAgent)}.`,
        details: { ...base, link, ipAddress, userAgent },
      };
    }
    case "Rendering Failure": {
      const { errorMessage, templateName } = event.failure ?? {};
      return {
        code: "EMAIL_MESSAGE_PROVIDER_ERROR",
        message: `SES could not render the message${templateName ? ` from template ${templateName}` : ""}: ${errorMessage ?? "no reason given"}.`,
        details: { ...base, errorMessage, templateName },
      };
    }
    default:
      return null;
  }
}

type Part<K extends "delivery" | "bounce" | "complaint" | "deliveryDelay"> = NonNullable<SesEvent[K]>;

function mapDelivery(delivery: Part<"delivery">, when: string, base: Record<string, unknown>): Mapped {
  const { processingTimeMillis, smtpResponse, reportingMTA, remoteMtaIp, recipients } = delivery;
  const after = processingTimeMillis === undefined ? "" : `, ${seconds(processingTimeMillis)} after SES accepted it`;
  const remote = remoteMtaIp ? `the receiving server ${remoteMtaIp}` : "the receiving server";
  const answer = smtpResponse ? `; ${remote} answered "${smtpResponse}"` : "";
  const by = reportingMTA ? ` (reported by ${reportingMTA})` : "";
  return {
    code: "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
    message: `Delivered to ${list(recipients)} at ${when}${after}${answer}${by}.`,
    details: { ...base, recipients, processingTimeMillis, smtpResponse, reportingMTA, remoteMtaIp },
  };
}

function mapBounce(bounce: Part<"bounce">, when: string, base: Record<string, unknown>): Mapped {
  const { bounceType, bounceSubType, bouncedRecipients, reportingMTA } = bounce;
  const recipients = bouncedRecipients.map((recipient) => recipient.emailAddress);
  const kind = [bounceType, bounceSubType].filter(Boolean).join(", ");
  const diagnostics = [...new Set(bouncedRecipients.map((recipient) => recipient.diagnosticCode).filter(Boolean))];
  const permanent = bounceType === "Permanent";
  const effect = permanent ? "" : " A transient bounce: the address stays deliverable.";
  return {
    code: "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT",
    message: `Bounced${kind ? ` (${kind})` : ""} for ${list(recipients)} at ${when}${diagnostics.length ? `: ${diagnostics.join("; ")}` : ""}.${effect}`,
    details: { ...base, bounceType, bounceSubType, bouncedRecipients, reportingMTA },
    suppress: permanent ? "HARD_BOUNCE" : undefined,
    recipients: permanent ? recipients : undefined,
  };
}

function mapComplaint(complaint: Part<"complaint">, when: string, base: Record<string, unknown>): Mapped {
  const { complaintFeedbackType, complaintSubType, userAgent } = complaint;
  const recipients = complaint.complainedRecipients.map((recipient) => recipient.emailAddress);
  const feedback = complaintFeedbackType ? ` (feedback type: ${complaintFeedbackType})` : "";
  return {
    code: "EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT",
    message: `${list(recipients)} marked the message as spam at ${when}${feedback}.`,
    details: { ...base, recipients, complaintFeedbackType, complaintSubType, userAgent },
    suppress: "COMPLAINT",
    recipients,
  };
}

function mapDelay(delay: Part<"deliveryDelay">, when: string, base: Record<string, unknown>): Mapped {
  const { delayType, expirationTime, delayedRecipients, reportingMTA } = delay;
  const recipients = delayedRecipients.map((recipient) => recipient.emailAddress);
  const diagnostics = [...new Set(delayedRecipients.map((recipient) => recipient.diagnosticCode).filter(Boolean))];
  const until = expirationTime ? ` until ${expirationTime}` : "";
  return {
    code: "EMAIL_MESSAGE_DELIVERY_DELAYED_PROVIDER_EVENT",
    message: `Delivery to ${list(recipients)} is delayed (${delayType ?? "reason not given"}, reported at ${when})${diagnostics.length ? `: ${diagnostics.join("; ")}` : ""}; SES keeps trying${until}.`,
    details: { ...base, delayType, expirationTime, delayedRecipients, reportingMTA },
  };
}

function list(addresses: string[]): string {
  return addresses.length ? addresses.join(", ") : "the recipient";
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function client(ipAddress: string | undefined, userAgent: string | undefined): string {
  const parts = [ipAddress ? `from ${ipAddress}` : "", userAgent ? `with ${userAgent}` : ""].filter(Boolean);
  return parts.length ? ` ${parts.join(" ")}` : "";
}

function readTime(value: string | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}
