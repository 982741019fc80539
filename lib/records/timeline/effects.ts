import { MESSAGE_STATUSES, type MessageStatus, type emailMessages } from "@/db/schema/messages";
import type { EventCode } from "./event-codes.shared";
import type { WebhookEventType } from "./webhook-event-types.shared";

type MessageRow = typeof emailMessages.$inferSelect;
export type TimestampKey = { [K in keyof MessageRow]: MessageRow[K] extends Date | null ? K : never }[keyof MessageRow];

export interface Effect {
  /** Earliest occurrence wins (order-tolerant: a late, earlier event still moves it back). */
  first?: TimestampKey;
  last?: TimestampKey;
  /** Where the status moves, from the statuses MOVES_FROM lists for it. */
  status?: MessageStatus;
  /** The webhook outbox/feed row it raises (docs/webhooks.md#event-types); none for sandbox messages. */
  webhook?: WebhookEventType;
}

const ERROR: Effect = { first: "erroredAt", status: "FAILED", webhook: "email.failed" };

/** Every code's effect on its message, the one place: every writer derives from it (effects-sql.ts, applyEffect). */
export const EFFECTS: Readonly<Record<EventCode, Effect>> = {
  EMAIL_MESSAGE_CREATED: { webhook: "email.created" },
  EMAIL_MESSAGE_RENDERED: { first: "processedAt" },
  EMAIL_MESSAGE_SENT_PROVIDER_EVENT: { first: "sentAt", status: "SUCCEEDED", webhook: "email.sent" },
  // Delivered implies sent, even when the provider's event overtakes the send call's answer.
  EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT: { first: "deliveredAt", status: "SUCCEEDED", webhook: "email.delivered" },
  EMAIL_MESSAGE_OPEN_PROVIDER_EVENT: { first: "firstOpenedAt", last: "lastOpenedAt", webhook: "email.opened" },
  EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT: { first: "firstClickedAt", last: "lastClickedAt", webhook: "email.clicked" },
  EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT: { first: "firstBouncedAt", last: "lastBouncedAt", webhook: "email.bounced" },
  EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT: {
    first: "firstComplainedAt",
    last: "lastComplainedAt",
    webhook: "email.complained",
  },
  EMAIL_MESSAGE_CONTACT_UNSUBSCRIBED: { last: "lastUnsubscribedAt", webhook: "email.unsubscribed" },
  EMAIL_MESSAGE_EMPTY_RECIPIENTS_ERROR: ERROR,
  EMAIL_MESSAGE_INVALID_PARAMETER_ERROR: ERROR,
  EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR: ERROR,
  EMAIL_MESSAGE_INVALID_SENDER_ERROR: ERROR,
  EMAIL_MESSAGE_INVALID_TEST_MODE_RECIPIENT_ERROR: ERROR,
  EMAIL_MESSAGE_SUPPRESSED: { last: "lastSuppressedAt", webhook: "email.suppressed" },
  EMAIL_MESSAGE_DELIVERY_DELAYED_PROVIDER_EVENT: { webhook: "email.delivery_delayed" },
  EMAIL_MESSAGE_DELIVERY_UNCONFIRMED: { first: "deliveryUnconfirmedAt" },
  EMAIL_MESSAGE_PROVIDER_ERROR: ERROR,
  EMAIL_MESSAGE_UNCLASSIFIED_PROVIDER_EVENT: {},
  // Held while the workspace is paused, released on resume; erasing ends the message for good.
  EMAIL_MESSAGE_PAUSED: { status: "PAUSED" },
  EMAIL_MESSAGE_RESUMED: { status: "PENDING" },
  EMAIL_MESSAGE_ERASED: { status: "DELETED" },
  EMAIL_MESSAGE_SCHEDULED: { webhook: "email.scheduled" },
  // Only a message still waiting (its caller checked, under the row lock, that it was not handed over).
  EMAIL_MESSAGE_CANCELLED: { status: "CANCELLED", webhook: "email.cancelled" },
  // The reply itself is an inbound message (the webhook names it); the status of what was sent stays.
  EMAIL_MESSAGE_REPLIED: { webhook: "email.replied" },
  EMAIL_MESSAGE_FAILED_OVER: {},
  EMAIL_MESSAGE_ATTEMPT_FAILED: {},
};

/** The statuses each move starts from; from any other the status stays, so it only moves forward. */
export const MOVES_FROM: Readonly<Record<MessageStatus, readonly MessageStatus[]>> = {
  SUCCEEDED: ["PENDING", "PAUSED"],
  FAILED: ["PENDING", "PAUSED", "SUCCEEDED", "FAILED"],
  PAUSED: ["PENDING"],
  PENDING: ["PAUSED"],
  DELETED: MESSAGE_STATUSES,
  CANCELLED: ["PENDING", "PAUSED"],
};

/** Combinable in one statement in any event order: FAILED moves from SUCCEEDED, SUCCEEDED never from FAILED. */
export const COMBINABLE_MOVES = ["FAILED", "SUCCEEDED"] as const satisfies readonly MessageStatus[];

export function moveStatus(current: MessageStatus, target: MessageStatus | undefined): MessageStatus {
  return target && MOVES_FROM[target].includes(current) ? target : current;
}

/** What the SQL writers do, on a new message's row in memory (the accept path inserts it with its effects). */
export function applyEffect(row: Pick<MessageRow, TimestampKey | "status">, code: EventCode, at: Date): void {
  const effect = EFFECTS[code];
  if (effect.first && !(row[effect.first] && row[effect.first]! <= at)) row[effect.first] = at;
  if (effect.last && !(row[effect.last] && row[effect.last]! >= at)) row[effect.last] = at;
  row.status = moveStatus(row.status, effect.status);
}
