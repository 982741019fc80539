import "server-only";
import type { Db } from "@/db/client";
import { log } from "@/lib/foundation/log";
import { metrics } from "@/lib/foundation/metrics/metrics";
import type { SuppressedRecipient } from "@/lib/domain/suppressions/filter-recipients";
import { handOver } from "./1-load-batch";
import type { DeliveryProvider, OutboundMail, ProviderResult } from "../provider";
import { acceptedSendRecorder, isPlainAcceptance } from "./6-record-accepted";
import { recordWhenReachable } from "./6-record-when-reachable";
import { unrecordedGate } from "../unrecorded-gate";
import { claim, claimAndRecordResult, recordResult, storeReferenceId, type DeliveryOutcome } from "./6-record";

/** A message to hand over (the mail a provider gets), and how its job is to be treated. */
export interface MailToSend {
  mail: OutboundMail;
  provider: DeliveryProvider;
  attempt: number;
  lastAttempt: boolean;
  suppressed: SuppressedRecipient[];
  /** When the message was accepted: observed as accept → sent latency once its SENT is recorded. */
  acceptedAt?: Date;
  /** The message's scheduledAt as its job named it: a reschedule since then stops this hand-off. */
  scheduledAt?: Date | null;
}

/** What came of a message to send: null when another run had claimed it first. */
export type SendResult = ProviderResult | null;

/** Settled as soon as it is made, so a failure waits for its reader without an unhandled rejection. */
export type Settled = { ok: true; result: SendResult } | { ok: false; error: unknown };

const settle = (promise: Promise<SendResult>): Promise<Settled> =>
  promise.then(
    (result) => ({ ok: true as const, result }),
    (error: unknown) => ({ ok: false as const, error }),
  );

/**
 * Sends the batch's messages to send and records each result on its own, as soon as its own answer is
 * in: SMTP sends run concurrently over the pool, and a message's SENT is committed right after its 250,
 * so a crash loses at most the messages in flight, never a batch's worth (docs/delivery.md "Crash
 * safety"). A provider with sendMany (Resend's batch endpoint) gets the messages in one call instead.
 */
export async function sendMails(db: Db, mails: MailToSend[]): Promise<Map<string, Promise<Settled>>> {
  const results = new Map<string, Promise<Settled>>();
  const network = mails.filter((entry) => !entry.provider.transactional);
  const inTransaction = inTurns(TRANSACTIONS_AT_ONCE);
  for (const entry of mails) {
    if (entry.provider.transactional) results.set(entry.mail.messageId, settle(inTransaction(() => sendInTransaction(db, entry))));
  }
  if (network.length === 0) return results;
  // The last check before anything leaves, a conditional update (load-delivery-batch.ts): a message
  // cancelled or rescheduled since it was loaded is not sent. Retries and a second worker are still
  // harmless (the message id is the idempotency key such a provider gets; recording re-checks).
  const unsent = await handOver(db, network.map((entry) => ({ id: entry.mail.messageId, scheduledAt: entry.scheduledAt ?? null })));
  const toSend = network.filter((entry) => unsent.has(entry.mail.messageId));
  for (const entry of network) if (!unsent.has(entry.mail.messageId)) results.set(entry.mail.messageId, settle(Promise.resolve(null)));
  for (const group of byProvider(toSend)) {
    const { provider } = group[0];
    if (provider.sendMany && group.length > 1) {
      const startedAt = new Date();
      const answers = provider.sendMany(group.map((entry) => entry.mail), { db, attempt: Math.min(...group.map((entry) => entry.attempt)) });
      group.forEach((entry, index) => {
        const answer = countHandoff(entry, answers.then((all) => all[index]));
        results.set(entry.mail.messageId, settle(answer.then((result) => record(db, entry, result, startedAt))));
      });
      continue;
    }
    for (const entry of group) results.set(entry.mail.messageId, settle(sendOne(db, entry)));
  }
  return results;
}

/**
 * One message through the provider, in a slot of the process's unrecorded gate (unrecorded-gate.ts)
 * from before the hand-off until its outcome is committed: what a SIGKILL can send twice is bounded.
 */
async function sendOne(db: Db, entry: MailToSend): Promise<SendResult> {
  return unrecordedGate().run(async () => {
    const startedAt = new Date();
    const result = await countHandoff(entry, entry.provider.send(entry.mail, { db, attempt: entry.attempt }));
    return record(db, entry, result, startedAt);
  });
}

/** postwerk_provider_handoffs_total: the provider's answer, or "error" when the call itself threw. */
function countHandoff(entry: MailToSend, answer: Promise<ProviderResult>): Promise<ProviderResult> {
  const provider = entry.provider.name;
  return answer.then(
    (result) => {
      metrics().providerHandoffs.inc({ provider, outcome: result.outcome });
      return result;
    },
    (error: unknown) => {
      metrics().providerHandoffs.inc({ provider, outcome: "error" });
      throw error;
    },
  );
}

/** Observed once the SENT is committed, from the acceptance time delivery read with the message. */
function observeSent(entry: MailToSend, result: ProviderResult): void {
  if (result.outcome !== "accepted" || !entry.acceptedAt) return;
  metrics().acceptToSent.observe({ provider: entry.provider.name }, (Date.now() - entry.acceptedAt.getTime()) / 1000);
}

/**
 * The recording of one message as soon as its answer is in: a plain acceptance through the group
 * recorder (one statement for the answers that arrive together, record-accepted.ts), anything else in
 * a transaction of its own (claim, re-checked under the row lock, and events).
 */
async function record(db: Db, entry: MailToSend, result: ProviderResult, startedAt: Date): Promise<SendResult> {
  const outcome = deliveryOutcome(entry, result, startedAt);
  // The provider has answered: from here a failure must not make the queue send the message again.
  const recorded = await recordWhenReachable(entry.mail.messageId, () =>
    isPlainAcceptance(outcome) ? acceptedSendRecorder(db).submit(outcome) : db.transaction((tx) => claimAndRecordResult(tx, outcome)),
  );
  if (!recorded) log.warn("message was recorded by another run meanwhile", { messageId: entry.mail.messageId, provider: entry.provider.name });
  else observeSent(entry, result);
  return result;
}

/**
 * A batch's transactional sends (the local inbox, the simulator) run a few at a time, not all at
 * once: on the embedded database every transaction waits its turn for the one connection, in order,
 * and a hundred queued at once put each API request's statements behind all of them. A few at a time
 * keep the connection as busy and the queue ahead of a request short (with the event loop's turn
 * before each transaction, db/pglite-client.ts, what ended the send timeouts under load).
 */
const TRANSACTIONS_AT_ONCE = 4;

/** Runs the tasks given to it at most `limit` at a time, in the order given. */
function inTurns(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** All such a provider does is write in this transaction: claim, send and record commit together. */
async function sendInTransaction(db: Db, entry: MailToSend): Promise<SendResult> {
  const startedAt = new Date();
  // Claimed under the row lock with the job's time: a cancel or reschedule either committed before
  // (nothing is sent) or waits for this transaction and then finds the message sent.
  const message = { id: entry.mail.messageId, workspaceId: entry.mail.workspaceId, scheduledAt: entry.scheduledAt ?? null };
  const sent = await db.transaction(async (tx) => {
    if (!(await claim(tx, message))) return null;
    const result = await countHandoff(entry, entry.provider.send(entry.mail, { db: tx, attempt: entry.attempt }));
    await storeReferenceId(tx, message, result);
    await recordResult(tx, deliveryOutcome(entry, result, startedAt));
    return result;
  });
  if (sent) observeSent(entry, sent);
  return sent;
}

function deliveryOutcome(entry: MailToSend, result: ProviderResult, startedAt: Date): DeliveryOutcome {
  return {
    message: { id: entry.mail.messageId, workspaceId: entry.mail.workspaceId },
    provider: entry.provider,
    result,
    startedAt,
    attempt: entry.attempt,
    lastAttempt: entry.lastAttempt,
    suppressed: entry.suppressed,
  };
}

function byProvider(entries: MailToSend[]): MailToSend[][] {
  const groups = new Map<DeliveryProvider, MailToSend[]>();
  for (const entry of entries) groups.set(entry.provider, [...(groups.get(entry.provider) ?? []), entry]);
  return [...groups.values()];
}
