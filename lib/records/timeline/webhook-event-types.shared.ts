/** Webhook and GET /v1/events types (docs/webhooks.md#event-types); email ones come from effects.ts `webhook`. */
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
  "email.replied",
  // Not a timeline event: raised by the inbound pipeline for every stored mail (docs/inbound.md#webhooks).
  "email.received",
  "workflow_run.completed",
  "workflow_run.failed",
  // About the workspace: its complaint or bounce rate passed half the pause threshold (docs/deliverability.md).
  "workspace.deliverability_warning",
  // About one of the workspace's connections: its circuit breaker opened or closed (docs/delivery.md#routing-and-failover).
  "provider.circuit_opened",
  "provider.circuit_closed",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}
