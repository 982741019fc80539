import type { MessageStatus } from "@/db/schema/messages";

/**
 * What happened to a message on its way to the recipient, in one word: the dashboard's headline. The API's `status`
 * (Waypoint's processing status) says only whether Postwerk handled the request, so a hard bounce is SUCCEEDED there;
 * this reads the timeline's facts instead. Precedence and tones: docs/dashboard.md#delivery-state.
 */
export type DeliveryState =
  | "Complained"
  | "Bounced"
  | "Failed"
  | "Cancelled"
  | "Unsubscribed"
  | "Clicked"
  | "Opened"
  | "Delivered"
  | "Suppressed"
  | "Sent"
  | "Sandbox"
  | "Erased"
  | "Held"
  | "Sending"
  | "Scheduled"
  | "Queued";

/** good: it arrived (or was read); bad: it did not, or the recipient objected; waiting: not decided yet. */
export type DeliveryTone = "good" | "bad" | "neutral" | "waiting";

/**
 * The columns the state is read from: the timeline's first/last timestamps (lib/records/timeline/effects.ts moves
 * them) and the status. `handedOverAt` is optional: a read without it says Queued for Sending.
 */
export interface DeliveryFacts {
  status: MessageStatus;
  sandbox: boolean;
  scheduledAt: Date | null;
  sentAt: Date | null;
  deliveredAt: Date | null;
  firstOpenedAt: Date | null;
  firstClickedAt: Date | null;
  firstBouncedAt: Date | null;
  firstComplainedAt: Date | null;
  erroredAt: Date | null;
  lastSuppressedAt: Date | null;
  lastUnsubscribedAt: Date | null;
  handedOverAt?: Date | null;
}

export interface DeliveryStateView {
  state: DeliveryState;
  tone: DeliveryTone;
  /** One sentence for a tooltip or a screen reader. */
  explanation: string;
}

type Rule = [DeliveryState, DeliveryTone, (facts: DeliveryFacts) => boolean, string];

// First match wins: what the recipient's side said outranks what we did (a bounce after "sent" is a bounce), and a
// problem outranks engagement (a complaint after a click is a complaint).
const RULES: Rule[] = [
  ["Complained", "bad", (f) => f.firstComplainedAt !== null, "The recipient marked it as spam."],
  ["Bounced", "bad", (f) => f.firstBouncedAt !== null, "The receiving server refused it."],
  ["Failed", "bad", (f) => f.erroredAt !== null || f.status === "FAILED", "It could not be sent: see the timeline."],
  ["Cancelled", "neutral", (f) => f.status === "CANCELLED", "Cancelled before it was sent."],
  ["Unsubscribed", "neutral", (f) => f.lastUnsubscribedAt !== null, "The recipient unsubscribed through it."],
  ["Clicked", "good", (f) => f.firstClickedAt !== null, "A link in it was clicked."],
  ["Opened", "good", (f) => f.firstOpenedAt !== null, "It was opened."],
  ["Delivered", "good", (f) => f.deliveredAt !== null, "The receiving server accepted it."],
  ["Suppressed", "bad", (f) => f.lastSuppressedAt !== null, "Not sent to a recipient on the suppression list."],
  ["Sent", "good", (f) => f.sentAt !== null, "Handed to the provider; no delivery report (yet)."],
  ["Sandbox", "neutral", (f) => f.sandbox, "A sandbox message: accepted, never delivered."],
  ["Erased", "neutral", (f) => f.status === "DELETED", "Erased before it was sent."],
  ["Held", "waiting", (f) => f.status === "PAUSED", "Held while sending is paused."],
  ["Sending", "waiting", (f) => f.status === "PENDING" && Boolean(f.handedOverAt), "Being handed to the provider."],
  ["Scheduled", "waiting", (f) => f.status === "PENDING" && f.scheduledAt !== null, "Waiting for its scheduled time."],
  ["Queued", "waiting", (f) => f.status === "PENDING", "Waiting for delivery."],
];

// SUCCEEDED with no fact above (a row from before a timestamp existed): Postwerk sent it.
const FALLBACK: DeliveryStateView = { state: "Sent", tone: "good", explanation: "Sent." };

export function deliveryState(facts: DeliveryFacts): DeliveryStateView {
  for (const [state, tone, applies, explanation] of RULES) if (applies(facts)) return { state, tone, explanation };
  return FALLBACK;
}

/** Every state in precedence order, for the docs' table and the tests. */
export const DELIVERY_STATES: readonly DeliveryState[] = RULES.map(([state]) => state);
