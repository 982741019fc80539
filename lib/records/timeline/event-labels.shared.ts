import type { EventCode } from "./event-codes.shared";

// The codes stay the API's vocabulary; this is the one table the dashboard turns them into words with.
export type EventCategory = "progress" | "engagement" | "problem" | "neutral";

/** The dashboard's badge tones (components/ui/badge.tsx), spelled here so lib/ need not import components/. */
export type EventTone = "success" | "info" | "danger" | "neutral";

export interface EventLabel {
  label: string;
  category: EventCategory;
  /** A glyph DejaVu Sans has, so screenshots taken on a bare Debian show it too. */
  icon: string;
}

export const CATEGORY_TONES: Record<EventCategory, EventTone> = {
  progress: "success",
  engagement: "info",
  problem: "danger",
  neutral: "neutral",
};

export const EVENT_LABELS: Record<EventCode, EventLabel> = {
  EMAIL_MESSAGE_CREATED: { label: "Accepted", category: "neutral", icon: "+" },
  EMAIL_MESSAGE_RENDERED: { label: "Rendered", category: "neutral", icon: "✎" },
  EMAIL_MESSAGE_SENT_PROVIDER_EVENT: { label: "Sent", category: "progress", icon: "➜" },
  EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT: { label: "Delivered", category: "progress", icon: "✓" },
  EMAIL_MESSAGE_OPEN_PROVIDER_EVENT: { label: "Opened", category: "engagement", icon: "✉" },
  EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT: { label: "Clicked", category: "engagement", icon: "↗" },
  EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT: { label: "Bounced", category: "problem", icon: "↩" },
  EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT: { label: "Complained", category: "problem", icon: "⚠" },
  EMAIL_MESSAGE_CONTACT_UNSUBSCRIBED: { label: "Unsubscribed", category: "engagement", icon: "⊖" },
  EMAIL_MESSAGE_EMPTY_RECIPIENTS_ERROR: { label: "Failed — no recipients", category: "problem", icon: "✗" },
  EMAIL_MESSAGE_INVALID_PARAMETER_ERROR: { label: "Failed — invalid parameter", category: "problem", icon: "✗" },
  EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR: { label: "Failed — invalid recipients", category: "problem", icon: "✗" },
  EMAIL_MESSAGE_INVALID_SENDER_ERROR: { label: "Failed — invalid sender", category: "problem", icon: "✗" },
  EMAIL_MESSAGE_INVALID_TEST_MODE_RECIPIENT_ERROR: {
    label: "Failed — not a test-mode recipient",
    category: "problem",
    icon: "✗",
  },
  EMAIL_MESSAGE_SUPPRESSED: { label: "Suppressed", category: "problem", icon: "⊘" },
  EMAIL_MESSAGE_DELIVERY_DELAYED_PROVIDER_EVENT: { label: "Delayed", category: "problem", icon: "◷" },
  EMAIL_MESSAGE_DELIVERY_UNCONFIRMED: { label: "Delivery unconfirmed", category: "problem", icon: "?" },
  EMAIL_MESSAGE_PROVIDER_ERROR: { label: "Failed — provider error", category: "problem", icon: "✗" },
  EMAIL_MESSAGE_UNCLASSIFIED_PROVIDER_EVENT: { label: "Unclassified report", category: "neutral", icon: "•" },
  EMAIL_MESSAGE_PAUSED: { label: "Paused", category: "neutral", icon: "‖" },
  EMAIL_MESSAGE_RESUMED: { label: "Resumed", category: "neutral", icon: "▶" },
  EMAIL_MESSAGE_ERASED: { label: "Erased", category: "neutral", icon: "⌫" },
  EMAIL_MESSAGE_SCHEDULED: { label: "Scheduled", category: "neutral", icon: "◷" },
  EMAIL_MESSAGE_CANCELLED: { label: "Cancelled", category: "neutral", icon: "⊗" },
  EMAIL_MESSAGE_REPLIED: { label: "Replied", category: "engagement", icon: "↩" },
  EMAIL_MESSAGE_FAILED_OVER: { label: "Failed over", category: "problem", icon: "⤳" },
  EMAIL_MESSAGE_ATTEMPT_FAILED: { label: "Attempt failed", category: "problem", icon: "↻" },
};

/** A code this build does not know (a newer row read by an older build) still gets a readable label. */
function fallbackLabel(code: string): EventLabel {
  const words = code
    .replace(/^EMAIL_MESSAGE_/, "")
    .replace(/_PROVIDER_EVENT$|_ERROR$/, "")
    .toLowerCase()
    .replace(/_/g, " ");
  return { label: words.charAt(0).toUpperCase() + words.slice(1), category: "neutral", icon: "•" };
}

/** Bounce diagnostics worth a word in the label; the full sentence is still shown beneath it. */
const BOUNCE_REASONS: [RegExp, string][] = [
  [/mailbox (is )?full|quota|insufficient storage|552/i, "mailbox full"],
  [
    /user unknown|no such (user|mailbox)|does not exist|unknown (user|recipient)|recipient rejected|550 5\.1\.1/i,
    "unknown address",
  ],
  [/spam|blocked|blacklist|blocklist|policy/i, "blocked"],
  [/\((transient|temporary)\)|soft bounce/i, "temporary"],
];

export interface DescribedEvent extends EventLabel {
  tone: EventTone;
}

export function describeEvent(code: string, message = ""): DescribedEvent {
  const known = (EVENT_LABELS as Record<string, EventLabel | undefined>)[code] ?? fallbackLabel(code);
  let label = known.label;
  if (code === "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT") {
    const reason = BOUNCE_REASONS.find(([pattern]) => pattern.test(message))?.[1];
    if (reason) label = `${label} — ${reason}`;
  }
  return { ...known, label, tone: CATEGORY_TONES[known.category] };
}

/** An ISO 8601 instant as the service writes them into event sentences (`Date.toISOString()`). */
const ISO_INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z/g;

export type SentencePart = { text: string } | { iso: string };

/** Cut at the instants it names, so the page shows them in the reader's zone and format. */
export function splitSentence(sentence: string): SentencePart[] {
  const parts: SentencePart[] = [];
  let last = 0;
  for (const match of sentence.matchAll(ISO_INSTANT)) {
    if (match.index > last) parts.push({ text: sentence.slice(last, match.index) });
    parts.push({ iso: match[0] });
    last = match.index + match[0].length;
  }
  if (last < sentence.length) parts.push({ text: sentence.slice(last) });
  return parts;
}
