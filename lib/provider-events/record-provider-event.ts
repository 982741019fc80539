import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages } from "@/db/schema/index";
import { errorFields, log } from "@/lib/log";
import { metrics } from "@/lib/metrics/metrics";
import { recordEvent } from "@/lib/timeline/record-event";
import type { EventCode } from "@/lib/timeline/event-codes.shared";
import { addSuppression } from "@/lib/suppressions/add-suppression";
import { checkAutoPause } from "@/lib/workspaces/check-auto-pause";
import { bareAddress } from "@/lib/addresses/sender-address.shared";

/** Who reported the event: a provider's webhook, the bounce listener, or the simulator. */
export type EventSource = "resend" | "ses" | "inbound" | "simulator";

/** One provider report, already mapped to the timeline's words by its adapter. */
export interface ProviderEvent {
  source: EventSource;
  /** The provider's own event type (for metrics and the details), e.g. "email.bounced", "Bounce", "dsn". */
  type: string;
  code: EventCode;
  /** The human sentence of docs/api.md#decided-events (bounce diagnostic, delivery time, client…). */
  message: string;
  /** When it happened, by the provider's clock. */
  at: Date;
  /** Unique per report: the same report twice records one event. */
  providerEventId: string;
  details: Record<string, unknown>;
  /** A permanent bounce or a complaint: the address is not mailed again. */
  suppress?: "HARD_BOUNCE" | "COMPLAINT";
  /** The recipient the report concerns, when the provider names one (SES, a DSN, an ARF report). */
  recipients?: string[];
  bot?: boolean;
}

/** How a report names its message: the provider's id (Resend, SES) or ours (bounce token, simulator). */
export type MessageRef = { referenceId: string } | { messageId: string };

export type ProviderEventResult =
  | { outcome: "recorded" | "duplicate"; messageId: string }
  | { outcome: "unknown-message" };

const GUARDED_CODES = new Set<EventCode>(["EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT", "EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT"]);

/**
 * The one ingestion path for what providers report after the hand-off (docs/delivery.md#provider-events):
 * finds the message (in any workspace: provider events are service-wide), records the event through
 * recordEvent at the provider's time (idempotent by providerEventId, order-tolerant by its effects),
 * lists a hard-bounced or complaining recipient on the workspace's suppression list in the same
 * transaction, then runs the automatic pause check. Adapters verify and map; they never write.
 */
export async function recordProviderEvent(ref: MessageRef, event: ProviderEvent): Promise<ProviderEventResult> {
  const db = await getDb();
  const [message] = await db
    .select({ id: emailMessages.id, workspaceId: emailMessages.workspaceId, to: emailMessages.to, cc: emailMessages.cc, bcc: emailMessages.bcc })
    .from(emailMessages)
    .where("referenceId" in ref ? eq(emailMessages.referenceId, ref.referenceId) : eq(emailMessages.id, ref.messageId))
    .limit(1);
  if (!message) return { outcome: "unknown-message" };

  const recorded = await db.transaction(async (tx) => {
    const isNew = await recordEvent(tx, {
      workspaceId: message.workspaceId,
      messageId: message.id,
      code: event.code,
      message: event.message,
      at: event.at,
      providerEventId: event.providerEventId,
      bot: event.bot,
      details: { provider: event.source, type: event.type, ...event.details },
    });
    if (!isNew || !event.suppress) return isNew;
    for (const address of suppressedAddresses(message, event)) {
      await addSuppression({ workspaceId: message.workspaceId, email: address, reason: event.suppress, emailMessageId: message.id, detail: event.message }, tx);
    }
    return isNew;
  });
  if (recorded && GUARDED_CODES.has(event.code)) await guardSending(message.workspaceId);
  const outcome = recorded ? "recorded" : "duplicate";
  metrics().providerEvents.inc({ provider: event.source, type: event.type, result: outcome });
  return { outcome, messageId: message.id };
}

/** Per workspace: the pause check running now, and the one queued to follow it. */
const checks = new Map<string, { running: Promise<void>; next?: Promise<void> }>();

/**
 * The automatic pause check after a bounce or complaint. The event is recorded: a failed check is only
 * logged. Coalesced per workspace: a bounce recorded while a check runs waits for the next check,
 * which starts after the running one and is shared by every bounce recorded meanwhile. So each bounce
 * is followed by a check that sees it, and a burst of reports (a DSN storm through the bounce
 * listener) costs one check per check's duration rather than one per report.
 */
function guardSending(workspaceId: string): Promise<void> {
  const state = checks.get(workspaceId);
  if (!state) return startCheck(workspaceId);
  return (state.next ??= state.running.then(() => startCheck(workspaceId)));
}

function startCheck(workspaceId: string): Promise<void> {
  const running: Promise<void> = checkOnce(workspaceId).finally(() => {
    const state = checks.get(workspaceId);
    if (state?.running === running && !state.next) checks.delete(workspaceId);
  });
  checks.set(workspaceId, { running });
  return running;
}

async function checkOnce(workspaceId: string): Promise<void> {
  try {
    await checkAutoPause({ workspaceId });
  } catch (error) {
    log.error("automatic pause check failed", { workspaceId, ...errorFields(error) });
  }
}

/**
 * The addresses a hard bounce or complaint lists. A report that names its recipients lists those of
 * them the message was really sent to (a forged or mistaken address never lands on the list); one that
 * names none (Resend reports per email) lists the message's only recipient, and nothing when it had
 * several: the event stays on the timeline.
 */
function suppressedAddresses(message: { id: string; to: string[]; cc: string[]; bcc: string[] }, event: ProviderEvent): string[] {
  const sentTo = new Map<string, string>();
  for (const recipient of [...message.to, ...message.cc, ...message.bcc]) {
    const address = bareAddress(recipient);
    if (address) sentTo.set(address.toLowerCase(), address);
  }
  if (event.recipients?.length) {
    const named = event.recipients.map((r) => sentTo.get((bareAddress(r) ?? r).toLowerCase())).filter((a): a is string => Boolean(a));
    if (!named.length) log.warn("provider event names recipients the message was not sent to", { messageId: message.id, code: event.code });
    return [...new Set(named)];
  }
  if (sentTo.size === 1) return [...sentTo.values()];
  log.warn("provider event names no single recipient to suppress", { messageId: message.id, code: event.code, recipients: sentTo.size });
  return [];
}
