/**
 * The webhook (and GET /v1/events) event types (docs/webhooks.md#event-types): the email ones raised
 * by the timeline codes whose effect names them (`webhook` in effects.ts; a code without one is on
 * the timeline only), the workflow_run ones where a run ends.
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

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}
