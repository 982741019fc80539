import { AppError } from "@/lib/foundation/errors";
import { bareAddress } from "./sender-address.shared";

/** The outcome simulator's domain (docs/delivery.md#the-outcome-simulator): `.test` is reserved (RFC 2606), so no real mailbox exists there. */
export const SIMULATOR_DOMAIN = "simulator.postwerk.test";

export const SIMULATED_OUTCOMES = [
  "delivered",
  "bounced",
  "soft-bounced",
  "complained",
  "delayed",
  "opened",
  "clicked",
] as const;
export type SimulatedOutcome = (typeof SIMULATED_OUTCOMES)[number];

const entry = (outcome: SimulatedOutcome, produces: string) => ({
  outcome,
  address: `${outcome}@${SIMULATOR_DOMAIN}`,
  produces,
});

/** What each address produces after SENT, in words (the dashboard's panel and docs/delivery.md). */
export const SIMULATOR_ADDRESSES: ReadonlyArray<{ outcome: SimulatedOutcome; address: string; produces: string }> = [
  entry("delivered", "Delivered"),
  entry("bounced", "Bounced (permanent); the address is suppressed"),
  entry("soft-bounced", "Bounced (transient); not suppressed"),
  entry("complained", "Delivered, then marked as spam; the address is suppressed"),
  entry("delayed", "Delayed, then delivered"),
  entry("opened", "Delivered, then opened"),
  entry("clicked", "Delivered, then a link clicked"),
];

const SUFFIX = `@${SIMULATOR_DOMAIN}`;
const KNOWN = new Set<string>(SIMULATED_OUTCOMES);
const ESCAPED_SUFFIX = SUFFIX.replaceAll(".", "\\.");
const MENTION = new RegExp(ESCAPED_SUFFIX, "i");
const AT_DOMAIN_END = new RegExp(`${ESCAPED_SUFFIX}$`, "i");

/** True when a bare address is at the simulator's domain (any case). Cheap: the send path calls it per recipient. */
export function isSimulatorAddress(address: string): boolean {
  return address.length > SUFFIX.length && AT_DOMAIN_END.test(address);
}

/** The outcome a bare address asks for: null off the simulator's domain, "unknown" for a local part it does not know; `+tag` ignored. */
export function simulatedOutcomeOf(address: string): SimulatedOutcome | "unknown" | null {
  if (!isSimulatorAddress(address)) return null;
  const local = address.slice(0, -SUFFIX.length).toLowerCase();
  const plus = local.indexOf("+");
  const name = plus === -1 ? local : local.slice(0, plus);
  return KNOWN.has(name) ? (name as SimulatedOutcome) : "unknown";
}

/** True when a message's stored entries name a simulator address: a cheap regex test first, then a hit is read properly. */
export function hasSimulatorRecipient(...lists: ReadonlyArray<readonly string[] | null | undefined>): boolean {
  for (const list of lists) {
    if (!list) continue;
    for (const entry of list) {
      if (!MENTION.test(entry)) continue;
      const address = bareAddress(entry);
      if (address && isSimulatorAddress(address)) return true;
    }
  }
  return false;
}

/**
 * Accept-time rules (docs/delivery.md#the-outcome-simulator): an unknown local part is refused (a typo would pass
 * silently), and a message to the simulator goes only to simulator addresses (a real one beside them would get nothing).
 */
export function assertSimulatorRecipients(recipients: ReadonlyArray<{ address: string; param: string }>): void {
  let simulated: { address: string; param: string } | null = null;
  let real: { address: string; param: string } | null = null;
  for (const recipient of recipients) {
    const outcome = simulatedOutcomeOf(recipient.address);
    if (outcome === "unknown") {
      throw new AppError(
        "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR",
        `${recipient.param} holds "${recipient.address}", which the outcome simulator does not know: use ${SIMULATED_OUTCOMES.join(", ")} (with an optional +tag) @${SIMULATOR_DOMAIN}.`,
        { param: recipient.param },
      );
    }
    if (outcome) simulated ??= recipient;
    else real ??= recipient;
  }
  if (simulated && real) {
    throw new AppError(
      "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR",
      `${real.param} holds "${real.address}" beside the simulator address "${simulated.address}": a message to the outcome simulator may go only to simulator addresses.`,
      { param: real.param },
    );
  }
}
