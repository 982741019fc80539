import { simulatedOutcomeOf, type SimulatedOutcome } from "@/lib/foundation/addresses/simulator.shared";
import type { ProviderEvent } from "@/lib/delivery/provider-events/record-provider-event";

/** What each simulator address reports after SENT, round by round (docs/delivery.md#the-outcome-simulator). */
const ROUNDS: Record<SimulatedOutcome, SimulatedOutcome[]> = {
  delivered: ["delivered"],
  bounced: ["bounced"],
  "soft-bounced": ["soft-bounced"],
  complained: ["delivered", "complained"],
  delayed: ["delayed", "delivered"],
  opened: ["delivered", "opened"],
  clicked: ["delivered", "clicked"],
};

export const ROUND_DELAYS_SECONDS = [1, 3] as const;

/** A recipient outside the simulator's domain or unknown is simply delivered: nothing simulated leaves the service. */
export function stepOf(address: string, round: number): SimulatedOutcome | null {
  const outcome = simulatedOutcomeOf(address);
  const rounds = ROUNDS[outcome && outcome !== "unknown" ? outcome : "delivered"];
  return rounds[round] ?? null;
}

export function roundsFor(addresses: string[]): number {
  return addresses.some((address) => stepOf(address, 1) !== null) ? 2 : 1;
}

const SIMULATOR_CLIENT = "Postwerk outcome simulator";
const HARD_BOUNCE = "550 5.1.1 The email account that you tried to reach does not exist (simulated)";
const SOFT_BOUNCE = "452 4.2.2 Mailbox full: the recipient's mailbox is over its quota (simulated)";

/** One step as the provider event a real provider would report, mapped to the timeline's words. */
export function simulatedEvent(input: {
  messageId: string;
  address: string;
  step: SimulatedOutcome;
  at: Date;
  link: string | null;
}): ProviderEvent {
  const { messageId, address, step, at, link } = input;
  const when = at.toISOString();
  const base = {
    source: "simulator" as const,
    type: step,
    at,
    providerEventId: `simulator:${messageId}:${step}:${address.toLowerCase()}`,
    recipients: [address],
  };
  const details = { simulated: true, recipient: address };
  switch (step) {
    case "delivered":
      return {
        ...base,
        code: "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
        message: `Delivered to ${address} at ${when} (simulated).`,
        details,
      };
    case "bounced":
      return {
        ...base,
        code: "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT",
        message: `Bounced (Permanent, General) for ${address} at ${when}: ${HARD_BOUNCE}.`,
        details: { ...details, bounceType: "Permanent", bounceSubType: "General", diagnostic: HARD_BOUNCE },
        suppress: "HARD_BOUNCE",
      };
    case "soft-bounced":
      return {
        ...base,
        code: "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT",
        message: `Bounced (Transient, MailboxFull) for ${address} at ${when}: ${SOFT_BOUNCE}.`,
        details: { ...details, bounceType: "Transient", bounceSubType: "MailboxFull", diagnostic: SOFT_BOUNCE },
      };
    case "complained":
      return {
        ...base,
        code: "EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT",
        message: `${address} marked the message as spam at ${when} (simulated, feedback type abuse).`,
        details: { ...details, feedbackType: "abuse" },
        suppress: "COMPLAINT",
      };
    case "delayed":
      return {
        ...base,
        code: "EMAIL_MESSAGE_DELIVERY_DELAYED_PROVIDER_EVENT",
        message: `Delivery to ${address} is delayed (reported at ${when}): 421 4.4.2 the receiving server did not answer; the simulator delivers it shortly.`,
        details: { ...details, diagnostic: "421 4.4.2 Connection timed out (simulated)" },
      };
    case "opened":
      return {
        ...base,
        code: "EMAIL_MESSAGE_OPEN_PROVIDER_EVENT",
        message: `Opened at ${when} with ${SIMULATOR_CLIENT}.`,
        details: { ...details, userAgent: SIMULATOR_CLIENT },
      };
    case "clicked":
      return {
        ...base,
        code: "EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT",
        message: `Clicked ${link ?? "a link"} at ${when} with ${SIMULATOR_CLIENT}.`,
        details: { ...details, link, userAgent: SIMULATOR_CLIENT },
      };
  }
}

/** The first http(s) link of the HTML, as a reader would click it: what `clicked@` reports. */
export function firstLinkOf(html: string | null): string | null {
  const match = html?.match(/<a\s[^>]*?href\s*=\s*["']?(https?:\/\/[^"'\s>]+)/i);
  return match ? match[1].replace(/&amp;/g, "&") : null;
}
