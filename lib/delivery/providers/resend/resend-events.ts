import { z } from "zod";
import type { EventCode } from "@/lib/records/timeline/event-codes.shared";

/** The parts of a Resend webhook payload the timeline uses (other fields are ignored, not rejected). */
export const resendEventSchema = z.object({
  type: z.string().min(1),
  created_at: z.string().min(1),
  data: z
    .object({
      email_id: z.string().min(1).optional(),
      to: z.array(z.string()).optional(),
      bounce: z
        .object({ message: z.string().optional(), type: z.string().optional(), subType: z.string().optional() })
        .optional(),
      click: z
        .object({ link: z.string().optional(), ipAddress: z.string().optional(), userAgent: z.string().optional() })
        .optional(),
      open: z.object({ ipAddress: z.string().optional(), userAgent: z.string().optional() }).optional(),
      failed: z.object({ reason: z.string().optional() }).optional(),
      suppressed: z.object({ message: z.string().optional(), type: z.string().optional() }).optional(),
    })
    .loose(),
});
export type ResendEvent = z.infer<typeof resendEventSchema>;

export interface MappedEvent {
  code: EventCode;
  message: string;
  details: Record<string, unknown>;
  /** A permanent bounce or a complaint: the address should not be mailed again. */
  suppress?: "HARD_BOUNCE" | "COMPLAINT";
}

/** Human sentences (docs/api.md#decided-events); null for event types of no message's timeline. */
export function mapResendEvent(event: ResendEvent, at: Date): MappedEvent | null {
  const { data } = event;
  const when = at.toISOString();
  const to = data.to?.length ? data.to.join(", ") : "the recipient";
  const base = { provider: "resend", type: event.type, emailId: data.email_id };
  switch (event.type) {
    case "email.sent":
      return {
        code: "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
        message: `Resend sent the message at ${when}.`,
        details: base,
      };
    case "email.delivered":
      return {
        code: "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
        message: `Delivered to ${to} at ${when}.`,
        details: base,
      };
    case "email.delivery_delayed":
      return {
        code: "EMAIL_MESSAGE_DELIVERY_DELAYED_PROVIDER_EVENT",
        message: `Delivery to ${to} is delayed (reported at ${when}): the receiving server has not accepted it yet, and Resend keeps trying.`,
        details: base,
      };
    case "email.bounced": {
      const { type, subType, message } = data.bounce ?? {};
      const kind = [type, subType].filter(Boolean).join(", ");
      return {
        code: "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT",
        message: `Bounced${kind ? ` (${kind})` : ""} for ${to} at ${when}${message ? `: ${message}` : "."}`,
        details: { ...base, bounceType: type ?? null, bounceSubType: subType ?? null, diagnostic: message ?? null },
        suppress: isHardBounce(type) ? "HARD_BOUNCE" : undefined,
      };
    }
    case "email.complained":
      return {
        code: "EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT",
        message: `${to} marked the message as spam at ${when}.`,
        details: base,
        suppress: "COMPLAINT",
      };
    case "email.opened": {
      const { ipAddress, userAgent } = data.open ?? {};
      return {
        code: "EMAIL_MESSAGE_OPEN_PROVIDER_EVENT",
        message: `Opened at ${when}${client(ipAddress, userAgent)}.`,
        details: { ...base, ipAddress, userAgent },
      };
    }
    case "email.clicked": {
      const { link, ipAddress, userAgent } = data.click ?? {};
      return {
        code: "EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT",
        message: `Clicked ${link ?? "a link"} at ${when}${client(ipAddress, userAgent)}.`,
        details: { ...base, link, ipAddress, userAgent },
      };
    }
    case "email.failed":
      return {
        code: "EMAIL_MESSAGE_PROVIDER_ERROR",
        message: `Resend could not send the message: ${data.failed?.reason ?? "no reason given"}.`,
        details: { ...base, reason: data.failed?.reason ?? null },
      };
    case "email.suppressed":
      return {
        code: "EMAIL_MESSAGE_SUPPRESSED",
        message: `Resend did not send to ${to}: the address is on Resend's suppression list${data.suppressed?.message ? ` (${data.suppressed.message})` : ""}.`,
        details: { ...base, reason: data.suppressed?.type ?? null },
      };
    default:
      return null;
  }
}

/** Resend (through SES) says "Permanent" for hard bounces; "Transient" and "Undetermined" are not. */
function isHardBounce(type: string | undefined): boolean {
  return type !== undefined && /^(permanent|hard)$/i.test(type);
}

function client(ipAddress: string | undefined, userAgent: string | undefined): string {
  const parts = [ipAddress ? `from ${ipAddress}` : "", userAgent ? `with ${userAgent}` : ""].filter(Boolean);
  return parts.length ? ` ${parts.join(" ")}` : "";
}

/** ISO 8601, or PostgreSQL-style `2024-02-22 23:41:12.126+00`; null when unreadable. */
export function parseResendTime(value: string): Date | null {
  let text = value.trim().replace(" ", "T");
  if (/[+-]\d\d$/.test(text)) text += ":00";
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}
