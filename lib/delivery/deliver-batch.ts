import "server-only";
import { getDb, type Db } from "@/db/client";
import { getQueue, type DeliverMessageJob } from "@/lib/records/queue/queue";
import { log } from "@/lib/foundation/log";
import type { EventCode } from "@/lib/records/timeline/event-codes.shared";
import { filterSuppressedRecipientsOfMessages, recordSuppressed, type FilteredRecipients } from "@/lib/domain/suppressions/filter-recipients";
import { holdIfPaused } from "./pipeline/2-hold-if-paused";
import { checkSenders, loadDeliverableMessages, type Deliverable, type SenderCheck } from "./pipeline/1-load-batch";
import { buildOutboundMail } from "./pipeline/4-build-mail";
import type { DeliveryProvider } from "./provider";
import { getDeliveryProvider } from "./registry";
import { providerFor, simulatorProvider } from "./providers/simulator/simulator-provider";
import { capitalize, claim, recordFailure } from "./pipeline/6-record";
import { sendMails, type MailToSend, type Settled } from "./pipeline/5-send";

export interface DeliverContext {
  /** 0 on the first try; the queue's retry count after. */
  attempt: number;
  /** The queue gives up after this attempt: a transient provider failure is then recorded as FAILED. */
  lastAttempt?: boolean;
  /** Overrides the configured provider (tests; later perhaps a per-workspace choice). */
  provider?: DeliveryProvider;
  /**
   * Tests only: runs once the batch's messages are loaded and before any is handed over, the window
   * in which a cancel or reschedule races a worker that already holds the job.
   */
  afterLoad?: () => Promise<void>;
}

export interface DeliveryItem {
  job: DeliverMessageJob;
  context: DeliverContext;
}

interface Run extends Deliverable {
  context: DeliverContext;
  provider: DeliveryProvider;
}

/**
 * The delivery job for a batch of jobs (docs/api.md#decided-sending), with set-based reads: one query for
 * the messages and their workspaces' state, one for suppressions, one for sender domains. Each message
 * is then held (paused workspace), settled without a send (every recipient suppressed), failed (sender
 * domain, attachments) or handed to the provider and recorded on its own (send-mails.ts). Returns
 * one entry per item, in order: null when its job is done, or the Error that has the queue retry it
 * (a transient provider failure before the last attempt, or an unexpected error of that message).
 */
export async function deliverMessages(items: DeliveryItem[]): Promise<Array<Error | null>> {
  const db = await getDb();
  const deliverable = await loadDeliverableMessages(db, items.map((item) => item.job));
  // A message named by two jobs of the batch (a retry and a resume) is delivered once for both.
  const runs = new Map<string, Run>();
  for (const { job, context } of items) {
    const found = deliverable.get(job.messageId);
    if (!found || runs.has(job.messageId)) continue;
    runs.set(job.messageId, { ...found, context, provider: providerFor(found.message, context.provider ?? getDeliveryProvider()) });
  }
  // The simulator enqueues in the claim's transaction: the queue must be started before it opens.
  if ([...runs.values()].some((run) => run.provider === simulatorProvider)) await getQueue();
  for (const hook of new Set(items.map((item) => item.context.afterLoad))) await hook?.();
  const outcomes = new Map<string, Error | null>();
  const active = await withoutHeld(db, [...runs.values()], outcomes);
  const messages = active.map((run) => run.message);
  const [recipients, senders] = await Promise.all([filterSuppressedRecipientsOfMessages(db, messages), checkSenders(db, messages)]);
  const toSend: MailToSend[] = [];
  await Promise.all(
    active.map(async (run) => {
      try {
        const mail = await mailToSendOrSettled(db, run, recipients.get(run.message.id)!, senders.get(run.message.id)!);
        if (mail) toSend.push(mail);
        outcomes.set(run.message.id, null);
      } catch (error) {
        outcomes.set(run.message.id, asError(error));
      }
    }),
  );
  const sent = await sendMails(db, toSend);
  const handedOver = new HandedOverLog();
  await Promise.all(
    toSend.map(async (entry) => {
      const run = runs.get(entry.mail.messageId)!;
      const settled = await sent.get(entry.mail.messageId)!;
      const outcome = jobResultOf(run, settled);
      if (!outcome && settled.ok && settled.result) handedOver.add(run, settled.result.outcome);
      outcomes.set(entry.mail.messageId, outcome);
    }),
  );
  handedOver.write();
  return items.map((item) => outcomes.get(item.job.messageId) ?? null);
}

/**
 * The batch's "messages handed to provider" info lines: one per provider and outcome, naming every
 * message, instead of a line per message (a JSON line and a write to stdout each, at 1,000 messages/s).
 * A message's id still finds its line; its timeline has the details.
 */
class HandedOverLog {
  private readonly groups = new Map<string, { provider: string; outcome: string; messageIds: string[] }>();

  add(run: Run, outcome: string): void {
    const key = `${run.provider.name}\n${outcome}`;
    const group = this.groups.get(key) ?? { provider: run.provider.name, outcome, messageIds: [] };
    group.messageIds.push(run.message.id);
    this.groups.set(key, group);
  }

  write(): void {
    for (const group of this.groups.values()) log.info("messages handed to provider", group);
  }
}

/** Moves the messages of paused workspaces to PAUSED (resuming enqueues new jobs); returns the rest. */
async function withoutHeld(db: Db, runs: Run[], outcomes: Map<string, Error | null>): Promise<Run[]> {
  const active: Run[] = [];
  for (const run of runs) {
    if (!run.paused) {
      active.push(run);
      continue;
    }
    try {
      // Re-checked under the workspace lock: a resume at this moment means the message goes now.
      if (await holdIfPaused(db, run.message)) outcomes.set(run.message.id, null);
      else active.push(run);
    } catch (error) {
      outcomes.set(run.message.id, asError(error));
    }
  }
  return active;
}

/**
 * The mail to hand over, or null when the message was settled without a send: every recipient
 * suppressed (docs/api.md#decided-unsubscribe-groups-suppression-contacts), a sender domain no longer verified
 * (docs/api.md#decided-errors), or uploaded attachments purged while the message waited.
 */
async function mailToSendOrSettled(db: Db, run: Run, recipients: FilteredRecipients, sender: SenderCheck): Promise<MailToSend | null> {
  const { message } = run;
  if (recipients.remaining === 0 && recipients.suppressed.length > 0) {
    await db.transaction(async (tx) => {
      if (await claim(tx, message)) await recordSuppressed(tx, message, recipients.suppressed, { nobodyLeft: true });
    });
    return null;
  }
  if (!sender.ok) return settleWithFailure(db, run, "EMAIL_MESSAGE_INVALID_SENDER_ERROR", sender.reason);
  const built = await buildOutboundMail(db, run, recipients, run.provider.needsMime === false ? null : { dkim: sender.signingKey() });
  if (!built.ok) return settleWithFailure(db, run, "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", built.reason);
  const { attempt, lastAttempt = false } = run.context;
  return {
    mail: built.mail,
    provider: run.provider,
    attempt,
    lastAttempt,
    suppressed: recipients.suppressed,
    // A scheduled message's latency counts from its time, not from its acceptance days before.
    acceptedAt: message.scheduledAt ?? message.createdAt,
    scheduledAt: message.scheduledAt,
  };
}

async function settleWithFailure(db: Db, { message }: Run, code: EventCode, sentence: string): Promise<null> {
  await db.transaction(async (tx) => {
    if (await claim(tx, message)) await recordFailure(tx, message, code, sentence);
  });
  return null;
}

/** A send's result as its job's result: a transient failure before the last attempt is retried. */
function jobResultOf(run: Run, settled: Settled): Error | null {
  if (!settled.ok) return asError(settled.error);
  const result = settled.result;
  if (!result) return null;
  if (result.outcome === "retry" && !run.context.lastAttempt) {
    return new Error(`${capitalize(run.provider.description)} asked to try again later: ${result.diagnostic}`);
  }
  return null;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
