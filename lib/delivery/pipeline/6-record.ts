import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { wellFormedJson } from "@/db/well-formed-json";
import { log } from "@/lib/foundation/log";
import { metrics } from "@/lib/foundation/metrics/metrics";
import type { EventCode } from "@/lib/records/timeline/event-codes.shared";
import { recordEvent, type RecordEventInput } from "@/lib/records/timeline/record-event";
import { recordEvents } from "@/lib/records/timeline/record-events";
import { recordSuppressed, type SuppressedRecipient } from "@/lib/domain/suppressions/filter-recipients";
import { capitalizedDescription, type DeliveryProvider, type ProviderResult } from "../provider";
import type { MailToSend, NothingToSend } from "./4-build-mail";
import type { Answer } from "./5-send";
import { acceptedSendRecorder, isPlainAcceptance } from "./6-record-accepted";
import { recordWhenReachable } from "./6-record-when-reachable";
import { routeNote, sentDetails, sentWords, type RouteNote } from "./6-sent-words";
import { claim, claimStoringReferenceId, type ClaimedMessage } from "./claims";

export interface DeliveryOutcome {
  message: ClaimedMessage;
  provider: DeliveryProvider;
  result: ProviderResult;
  /** When the send began: the SENT event's time. */
  startedAt: Date;
  attempt: number;
  lastAttempt: boolean;
  suppressed: SuppressedRecipient[];
  /** How it was routed, when there is more to say than "the default connection". */
  route?: RouteNote;
}

/** Step 6 for a network send: a plain acceptance through the group recorder, anything else in its own transaction. */
export async function recordAnswer(db: Db, entry: MailToSend, answer: Answer): Promise<ProviderResult> {
  const outcome = deliveryOutcome(entry, answer);
  // The provider has answered: from here a failure must not make the queue send the message again.
  const recorded = await recordWhenReachable(entry.mail.messageId, () =>
    isPlainAcceptance(outcome)
      ? acceptedSendRecorder(db).submit(outcome)
      : db.transaction((tx) => claimAndRecordResult(tx, outcome)),
  );
  if (!recorded)
    log.warn("message was recorded by another run meanwhile", {
      messageId: entry.mail.messageId,
      provider: entry.provider.name,
    });
  else observeSent(entry, answer.result);
  return answer.result;
}

/** Step 6 for a transactional send, in the transaction that claimed the message and sent it. */
export async function recordInTransaction(tx: Tx, entry: MailToSend, answer: Answer): Promise<void> {
  const outcome = deliveryOutcome(entry, answer);
  await storeReferenceId(tx, outcome.message, answer.result);
  await recordResult(tx, outcome);
}

/**
 * Step 6 for a batch of transactional sends, in the transaction that claimed and sent them: the reference ids in
 * one statement, and every "sent and delivered" pair in one set of events; anything else message by message.
 */
export async function recordManyInTransaction(
  tx: Tx,
  sent: Array<{ entry: MailToSend; answer: Answer }>,
): Promise<void> {
  const outcomes = sent.map(({ entry, answer }) => deliveryOutcome(entry, answer));
  await storeReferenceIds(tx, outcomes);
  const together = outcomes.filter(isDeliveredAtOnce);
  if (together.length > 0) await recordEvents(tx, together.flatMap(sentAndDeliveredEvents));
  for (const outcome of outcomes) if (!isDeliveredAtOnce(outcome)) await recordResult(tx, outcome);
}

/** Accepted and delivered in one answer (the local inbox), with no suppressed recipient to place before it. */
function isDeliveredAtOnce({ result, suppressed }: DeliveryOutcome): boolean {
  return result.outcome === "accepted" && result.delivered !== undefined && suppressed.length === 0;
}

/** Step 6 for a message step 4 found nothing to send for: why, if it is still unsent. */
export async function recordNothingSent(db: Db, message: ClaimedMessage, nothing: NothingToSend): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await claim(tx, message))) return;
    if ("suppressedAll" in nothing) await recordSuppressed(tx, message, nothing.suppressedAll, { nobodyLeft: true });
    else await recordFailure(tx, message, nothing.failure, nothing.sentence);
  });
}

/** Observed once the SENT is committed, from the acceptance time delivery read with the message. */
export function observeSent(entry: MailToSend, result: ProviderResult): void {
  if (result.outcome !== "accepted" || !entry.acceptedAt) return;
  metrics().acceptToSent.observe({ provider: entry.provider.name }, (Date.now() - entry.acceptedAt.getTime()) / 1000);
}

function deliveryOutcome(entry: MailToSend, { result, startedAt }: Answer): DeliveryOutcome {
  return {
    message: { id: entry.mail.messageId, workspaceId: entry.mail.workspaceId },
    provider: entry.provider,
    result,
    startedAt,
    attempt: entry.attempt,
    lastAttempt: entry.lastAttempt,
    suppressed: entry.suppressed,
    route: routeNote(entry),
  };
}

/** False when another run recorded the message meanwhile; an accepted send claims it by storing its referenceId. */
async function claimAndRecordResult(tx: Tx, outcome: DeliveryOutcome): Promise<boolean> {
  const { message, result } = outcome;
  const claimed =
    result.outcome === "accepted"
      ? await claimStoringReferenceId(tx, message, result.referenceId)
      : await claim(tx, message);
  if (!claimed) return false;
  // Certainly not taken: no longer bound to that connection, so the next try may take the whole route again.
  if (result.outcome === "retry" && result.notAccepted && outcome.route?.bound) await unbind(tx, message);
  await recordResult(tx, outcome);
  return true;
}

/** SUPPRESSED (some recipients), then SENT and DELIVERED, or the failure; nothing for a retry to come. */
async function recordResult(tx: Tx, outcome: DeliveryOutcome): Promise<void> {
  const { message, provider, result, startedAt, suppressed, lastAttempt } = outcome;
  const who = capitalizedDescription(provider);
  if (suppressed.length > 0 && (result.outcome !== "retry" || lastAttempt)) {
    // Placed just before "sent" (see sentAt below) so the timeline reads in order.
    const delivered = result.outcome === "accepted" ? result.delivered?.at.getTime() : undefined;
    await recordSuppressed(tx, message, suppressed, {
      at: new Date(Math.min(startedAt.getTime(), delivered ?? Infinity) - 2),
    });
  }
  if (result.outcome === "failed") {
    return recordFailure(
      tx,
      message,
      "EMAIL_MESSAGE_PROVIDER_ERROR",
      `${who} rejected the message: ${result.diagnostic}`,
    );
  }
  if (result.outcome === "retry") {
    if (!lastAttempt) return recordEvent(tx, attemptFailedEvent(outcome, result)).then(() => undefined);
    const tries = outcome.attempt + 1;
    const sentence = `${who} did not take the message after ${tries} attempt${tries === 1 ? "" : "s"}: ${result.diagnostic}`;
    return recordFailure(tx, message, "EMAIL_MESSAGE_PROVIDER_ERROR", sentence);
  }
  const [sentEvent, deliveredEvent] = sentAndDeliveredEvents(outcome);
  // Both in one statement (and one for their webhook rows): the same effects as one after the other.
  await (deliveredEvent ? recordEvents(tx, [sentEvent, deliveredEvent]) : recordEvent(tx, sentEvent));
}

/** SENT, and DELIVERED when the provider's answer says so, for an accepted outcome. */
function sentAndDeliveredEvents(outcome: DeliveryOutcome): RecordEventInput[] {
  const { message, provider, result, startedAt } = outcome;
  if (result.outcome !== "accepted") throw new Error("only an accepted outcome has a SENT event");
  const { delivered, referenceId } = result;
  // The timeline orders by time: "sent" must read before "delivered", even within one millisecond.
  const sentAt =
    delivered && delivered.at.getTime() <= startedAt.getTime() ? new Date(delivered.at.getTime() - 1) : startedAt;
  const ids = { workspaceId: message.workspaceId, messageId: message.id };
  const sentEvent: RecordEventInput = {
    ...ids,
    code: "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
    message: sentWords(outcome),
    at: sentAt,
    // One SENT per provider and message, even if two runs ever raced past the claim.
    providerEventId: `${provider.name}:sent`,
    details: sentDetails(outcome, referenceId),
  };
  if (!delivered) return [sentEvent];
  return [
    sentEvent,
    {
      ...ids,
      code: "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
      message: delivered.message,
      at: delivered.at,
      providerEventId: `${provider.name}:delivered`,
      details: { provider: provider.name },
    },
  ];
}

/** A try that failed but will be made again: said on the timeline, with where the next try may go. */
function attemptFailedEvent(
  { message, provider, attempt, route }: DeliveryOutcome,
  result: Extract<ProviderResult, { outcome: "retry" }>,
): RecordEventInput {
  const through = `${provider.description}${route ? ` (connection ${route.connection})` : ""}`;
  const next =
    route?.bound && !result.notAccepted
      ? "The outcome is unclear (the relay may have it), so only this connection tries it again."
      : "It is tried again later.";
  return {
    workspaceId: message.workspaceId,
    messageId: message.id,
    code: "EMAIL_MESSAGE_ATTEMPT_FAILED",
    message: `Attempt ${attempt + 1} through ${through} failed: ${result.diagnostic.replace(/\.?$/, ".")} ${next}`,
    details: { attempt: attempt + 1, provider: provider.name, ...(route && { connection: route.connection }) },
  };
}

async function unbind(tx: Tx, message: ClaimedMessage): Promise<void> {
  await tx
    .update(emailMessages)
    .set({ connectionId: null })
    .where(and(eq(emailMessages.id, message.id), eq(emailMessages.workspaceId, message.workspaceId)));
}

/** The provider's id for an accepted message, on the claimed row (the transactional path). */
async function storeReferenceId(tx: Tx, message: ClaimedMessage, result: ProviderResult): Promise<void> {
  if (result.outcome !== "accepted") return;
  await tx
    .update(emailMessages)
    .set({ referenceId: result.referenceId })
    .where(and(eq(emailMessages.id, message.id), eq(emailMessages.workspaceId, message.workspaceId)));
}

/** storeReferenceId for a batch of claimed rows, in one statement. */
async function storeReferenceIds(tx: Tx, outcomes: DeliveryOutcome[]): Promise<void> {
  const rows = outcomes.flatMap(({ message, result }) =>
    result.outcome === "accepted"
      ? [{ id: message.id, workspace_id: message.workspaceId, reference_id: result.referenceId }]
      : [],
  );
  if (rows.length === 0) return;
  const m = emailMessages;
  await tx.execute(sql`
    update ${m} set ${sql.identifier(m.referenceId.name)} = input.reference_id
    from json_to_recordset(${wellFormedJson(rows)}::json) as input(id text, workspace_id text, reference_id text)
    where ${inArray(
      m.id,
      rows.map((row) => row.id),
    )} and ${m.id} = input.id and ${m.workspaceId} = input.workspace_id`);
}

async function recordFailure(tx: Tx, message: ClaimedMessage, code: EventCode, sentence: string): Promise<void> {
  await recordEvent(tx, { workspaceId: message.workspaceId, messageId: message.id, code, message: sentence });
}
