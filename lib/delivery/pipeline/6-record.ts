import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { emailMessages } from "@/db/schema";
import type { EventCode } from "@/lib/records/timeline/event-codes.shared";
import { recordEvent, type RecordEventInput } from "@/lib/records/timeline/record-event";
import { recordEvents } from "@/lib/records/timeline/record-events";
import { recordSuppressed, type SuppressedRecipient } from "@/lib/domain/suppressions/filter-recipients";
import type { DeliveryProvider, ProviderResult } from "../provider";

/** What the recording of one delivery needs to know about the message. */
export interface ClaimedMessage {
  id: string;
  workspaceId: string;
  /** When given (delivery's own claims), the message must still be at this time: not rescheduled meanwhile. */
  scheduledAt?: Date | null;
}

export interface DeliveryOutcome {
  message: ClaimedMessage;
  provider: DeliveryProvider;
  result: ProviderResult;
  /** When the send began: the SENT event's time. */
  startedAt: Date;
  attempt: number;
  lastAttempt: boolean;
  suppressed: SuppressedRecipient[];
}

const unsent = (message: ClaimedMessage) => {
  const m = emailMessages;
  const atItsTime =
    message.scheduledAt === undefined ? undefined : message.scheduledAt === null ? isNull(m.scheduledAt) : eq(m.scheduledAt, message.scheduledAt);
  return and(eq(m.id, message.id), eq(m.workspaceId, message.workspaceId), eq(m.status, "PENDING"), isNull(m.sentAt), atItsTime);
};

/** Locks the message row (in a transaction) and says whether it is still waiting for delivery. */
export async function claim(db: Executor, message: ClaimedMessage): Promise<boolean> {
  const rows = await db.select({ id: emailMessages.id }).from(emailMessages).where(unsent(message)).for("update");
  return rows.length === 1;
}

/**
 * Records a provider's answer in the caller's transaction, if the message is still unsent; returns
 * false when another run recorded it meanwhile. An accepted send claims the row with the update that
 * stores its referenceId (one round trip: the UPDATE takes the same row lock as SELECT … FOR UPDATE).
 */
export async function claimAndRecordResult(tx: Executor, outcome: DeliveryOutcome): Promise<boolean> {
  const { message, result } = outcome;
  if (result.outcome === "accepted") {
    const rows = await tx
      .update(emailMessages)
      .set({ referenceId: result.referenceId })
      .where(unsent(message))
      .returning({ id: emailMessages.id });
    if (rows.length === 0) return false;
  } else if (!(await claim(tx, message))) return false;
  await recordResult(tx, outcome);
  return true;
}

/**
 * SUPPRESSED (some recipients), then SENT and DELIVERED, or the failure; nothing for a retry to come.
 * The message is claimed and, when accepted, its referenceId stored (claimAndRecordResult, storeReferenceId).
 */
export async function recordResult(tx: Executor, outcome: DeliveryOutcome): Promise<void> {
  const { message, provider, result, startedAt, suppressed, lastAttempt } = outcome;
  const who = capitalize(provider.description);
  if (suppressed.length > 0 && (result.outcome !== "retry" || lastAttempt)) {
    // Placed just before "sent" (see sentAt below) so the timeline reads in order.
    const delivered = result.outcome === "accepted" ? result.delivered?.at.getTime() : undefined;
    await recordSuppressed(tx, message, suppressed, { at: new Date(Math.min(startedAt.getTime(), delivered ?? Infinity) - 2) });
  }
  if (result.outcome === "failed") {
    return recordFailure(tx, message, "EMAIL_MESSAGE_PROVIDER_ERROR", `${who} rejected the message: ${result.diagnostic}`);
  }
  if (result.outcome === "retry") {
    if (!lastAttempt) return;
    const tries = outcome.attempt + 1;
    const sentence = `${who} did not take the message after ${tries} attempt${tries === 1 ? "" : "s"}: ${result.diagnostic}`;
    return recordFailure(tx, message, "EMAIL_MESSAGE_PROVIDER_ERROR", sentence);
  }
  const { delivered, referenceId } = result;
  // The timeline orders by time: "sent" must read before "delivered", even within one millisecond.
  const sentAt =
    delivered && delivered.at.getTime() <= startedAt.getTime() ? new Date(delivered.at.getTime() - 1) : startedAt;
  const ids = { workspaceId: message.workspaceId, messageId: message.id };
  const sentEvent: RecordEventInput = {
    ...ids,
    code: "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
    message: `Sent through ${provider.description}.`,
    at: sentAt,
    // One SENT per provider and message, even if two runs ever raced past the claim.
    providerEventId: `${provider.name}:sent`,
    details: { provider: provider.name, referenceId },
  };
  if (!delivered) {
    await recordEvent(tx, sentEvent);
    return;
  }
  // Both in one statement (and one for their webhook rows): the same effects as one after the other.
  await recordEvents(tx, [
    sentEvent,
    {
      ...ids,
      code: "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
      message: delivered.message,
      at: delivered.at,
      providerEventId: `${provider.name}:delivered`,
      details: { provider: provider.name },
    },
  ]);
}

/** The provider's id for an accepted message, on the claimed row (the transactional path). */
export async function storeReferenceId(tx: Executor, message: ClaimedMessage, result: ProviderResult): Promise<void> {
  if (result.outcome !== "accepted") return;
  await tx
    .update(emailMessages)
    .set({ referenceId: result.referenceId })
    .where(and(eq(emailMessages.id, message.id), eq(emailMessages.workspaceId, message.workspaceId)));
}

export async function recordFailure(tx: Executor, message: ClaimedMessage, code: EventCode, sentence: string): Promise<void> {
  await recordEvent(tx, { workspaceId: message.workspaceId, messageId: message.id, code, message: sentence });
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
