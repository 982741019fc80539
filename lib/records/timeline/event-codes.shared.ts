/** Timeline codes: the published set (docs/api.md#resources) plus the ones the service records beyond it. */
export const EVENT_CODES = [
  "EMAIL_MESSAGE_CREATED",
  "EMAIL_MESSAGE_RENDERED",
  "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
  "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
  "EMAIL_MESSAGE_OPEN_PROVIDER_EVENT",
  "EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT",
  "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT",
  "EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT",
  "EMAIL_MESSAGE_CONTACT_UNSUBSCRIBED",
  "EMAIL_MESSAGE_EMPTY_RECIPIENTS_ERROR",
  "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
  "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR",
  "EMAIL_MESSAGE_INVALID_SENDER_ERROR",
  "EMAIL_MESSAGE_INVALID_TEST_MODE_RECIPIENT_ERROR",
  // Beyond the published API: recorded so a timeline never goes silent.
  "EMAIL_MESSAGE_SUPPRESSED",
  "EMAIL_MESSAGE_DELIVERY_DELAYED_PROVIDER_EVENT",
  "EMAIL_MESSAGE_DELIVERY_UNCONFIRMED",
  "EMAIL_MESSAGE_PROVIDER_ERROR",
  // A report about the message (a reply to its bounce address) no rule could classify: kept, never dropped.
  "EMAIL_MESSAGE_UNCLASSIFIED_PROVIDER_EVENT",
  // Workspace sending state (docs/delivery.md): held while paused, released on resume, content erased.
  "EMAIL_MESSAGE_PAUSED",
  "EMAIL_MESSAGE_RESUMED",
  "EMAIL_MESSAGE_ERASED",
  // Scheduled sends (docs/api.md#decided-scheduled-sends): when it goes out (or was moved to), and its cancellation.
  "EMAIL_MESSAGE_SCHEDULED",
  "EMAIL_MESSAGE_CANCELLED",
  // Someone answered it: an inbound mail linked to it (docs/inbound.md#threads).
  "EMAIL_MESSAGE_REPLIED",
  // Routing (docs/delivery.md#routing-and-failover): a connection certainly refused it, the next one of its route takes it.
  "EMAIL_MESSAGE_FAILED_OVER",
  // A delivery try that failed and will be made again (the last one's failure is EMAIL_MESSAGE_PROVIDER_ERROR).
  "EMAIL_MESSAGE_ATTEMPT_FAILED",
] as const;

export type EventCode = (typeof EVENT_CODES)[number];
