import type { EventCode } from "./event-codes.shared";

/**
 * The webhook (and GET /v1/events) event types, the email ones mapped from the timeline codes that
 * raise them (docs/webhooks.md#event-types); the workflow_run ones are raised where a run ends. A code missing here (RENDERED, PAUSED, RESUMED, ERASED, UNCONFIRMED,
 * UNCLASSIFIED) is on the timeline only.
 */
export const WEBHOOK_EVENT_TYPES = [
  "email.created",
  "email.sent",
  "email.delivered",
  "email.delivery_delayed",
  "email.bounced",
  "email.complained",
  "email.opened",
  "email.clicked",
  "email.unsubscribed",
  "email.suppressed",
  "email.failed",
  "email.scheduled",
  "email.cancelled",
  "workflow_run.completed",
  "workflow_run.failed",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_TYPE_OF_CODE: Partial<Record<EventCode, WebhookEventType>> = {
  EMAIL_MESSAGE_CREATED: "email.created",
  EMAIL_MESSAGE_SENT_PROVIDER_EVENT: "email.sent",
  EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT: "email.delivered",
  EMAIL_MESSAGE_DELIVERY_DELAYED_PROVIDER_EVENT: "email.delivery_delayed",
  EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT: "email.bounced",
  EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT: "email.complained",
  EMAIL_MESSAGE_OPEN_PROVIDER_EVENT: "email.opened",
  EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT: "email.clicked",
  EMAIL_MESSAGE_CONTACT_UNSUBSCRIBED: "email.unsubscribed",
  EMAIL_MESSAGE_SUPPRESSED: "email.suppressed",
  EMAIL_MESSAGE_EMPTY_RECIPIENTS_ERROR: "email.failed",
  EMAIL_MESSAGE_INVALID_PARAMETER_ERROR: "email.failed",
  EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR: "email.failed",
  EMAIL_MESSAGE_INVALID_SENDER_ERROR: "email.failed",
  EMAIL_MESSAGE_INVALID_TEST_MODE_RECIPIENT_ERROR: "email.failed",
  EMAIL_MESSAGE_PROVIDER_ERROR: "email.failed",
  // Scheduled sends: accepted for a later time (or moved to another), and cancelled before the hand-off.
  EMAIL_MESSAGE_SCHEDULED: "email.scheduled",
  EMAIL_MESSAGE_CANCELLED: "email.cancelled",
};

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}
