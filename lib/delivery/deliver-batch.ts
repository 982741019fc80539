/**
 * Delivery in the order of pipeline/'s numbered files: 1 load, 2 hold (paused workspaces), 3 check (suppressions,
 * senders), 4 build, then claim (a cancel or reschedule since 1 wins), 5 send, 6 record, 7 job results.
 * No step imports a later step or this file; the row claims they share are in pipeline/claims.ts.
 */
import "server-only";
import { getDb, type Db } from "@/db/client";
import { filterSuppressedRecipientsOfMessages } from "@/lib/domain/suppressions/filter-recipients";
import { unrecordedGate } from "./unrecorded-gate";
import { loadBatch, type DeliveryItem, type Run } from "./pipeline/1-load-batch";
import { holdIfPaused } from "./pipeline/2-hold-if-paused";
import { checkSenders } from "./pipeline/3-check-senders";
import { buildMail, type MailToSend } from "./pipeline/4-build-mail";
import { byProvider, inTurns, send, sendMany, TRANSACTIONS_AT_ONCE } from "./pipeline/5-send";
import { bindConnections, chooseConnections, followRoute, heldBack } from "./pipeline/5-failover";
import { recordAnswer, recordNothingSent } from "./pipeline/6-record";
import { asError, HandedOverLog, jobResultOf, settle, type Settled } from "./pipeline/7-job-results";
import { handOver } from "./pipeline/claims";
import { sendBatchInTransaction, TRANSACTIONAL_BATCH } from "./send-in-transaction";
import { MessageSpans } from "./message-spans";
import { inSpan } from "@/lib/foundation/tracing";

export type { DeliverContext, DeliveryItem } from "./pipeline/1-load-batch";

/** One entry per item, in order: null when its job is done, or the Error the queue retries it with. */
export async function deliverMessages(items: DeliveryItem[]): Promise<Array<Error | null>> {
  const db = await getDb();
  const runs = await loadBatch(db, items);
  for (const hook of new Set(items.map((item) => item.context.afterLoad))) await hook?.();
  const outcomes = new Map<string, Error | null>();
  const spans = new MessageSpans(runs);
  try {
    await deliverRuns(db, runs, outcomes, spans);
  } finally {
    spans.end(outcomes);
  }
  return items.map((item) => outcomes.get(item.job.messageId) ?? null);
}

/** Steps 2 to 7 for the loaded batch; each message's outcome lands in `outcomes`. */
async function deliverRuns(
  db: Db,
  runs: Run[],
  outcomes: Map<string, Error | null>,
  spans: MessageSpans,
): Promise<void> {
  const active = await withoutHeld(db, runs, outcomes);
  const messages = active.map((run) => run.message);
  const [recipients, senders] = await Promise.all([
    filterSuppressedRecipientsOfMessages(db, messages),
    checkSenders(db, active),
  ]);
  const toSend: MailToSend[] = [];
  await Promise.all(
    active.map(async (run) => {
      const id = run.message.id;
      try {
        const build = () => buildMail(db, run, recipients.get(id)!, senders.get(id)!);
        const built = await spans.within(id, () => inSpan("build mail", {}, build));
        if ("send" in built) toSend.push(built.send);
        else await recordNothingSent(db, run.message, built);
        outcomes.set(id, null);
      } catch (error) {
        outcomes.set(id, asError(error));
      }
    }),
  );
  const sent = await sendAndRecord(db, toSend, spans);
  const handedOver = new HandedOverLog();
  await Promise.all(
    toSend.map(async (entry) => {
      const settled = await sent.get(entry.mail.messageId)!;
      const outcome = jobResultOf(entry, settled);
      if (!outcome && settled.ok && settled.result) handedOver.add(entry, settled.result.outcome);
      outcomes.set(entry.mail.messageId, outcome);
    }),
  );
  handedOver.write();
}

/** Step 2 for the batch: holds the messages of paused workspaces (resuming enqueues new jobs); returns the rest. */
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

/** Each message on its own: its SENT commits right after its answer, so a crash loses only the mails in flight. */
async function sendAndRecord(db: Db, mails: MailToSend[], spans: MessageSpans): Promise<Map<string, Promise<Settled>>> {
  const settled = new Map<string, Promise<Settled>>();
  // Each message's hand-off and recording run within its own span.
  const results = {
    set: (id: string, outcome: () => Promise<Settled>) => settled.set(id, spans.within(id, outcome)),
  };
  const inTransaction = inTurns(TRANSACTIONS_AT_ONCE);
  const transactional = mails.filter((entry) => entry.provider.transactional);
  for (let start = 0; start < transactional.length; start += TRANSACTIONAL_BATCH) {
    const batch = transactional.slice(start, start + TRANSACTIONAL_BATCH);
    const sent = inTransaction(() => sendBatchInTransaction(db, batch, spans));
    for (const entry of batch)
      settled.set(
        entry.mail.messageId,
        sent.then((results) => results.get(entry.mail.messageId)!),
      );
  }
  const network = mails.filter((entry) => !entry.provider.transactional);
  if (network.length === 0) return settled;
  // Every connection of its route paused by its breaker: the queue tries again later.
  const waiting = new Set(await chooseConnections(db, network));
  for (const entry of waiting)
    results.set(entry.mail.messageId, () => settle(recordAnswer(db, entry, heldBack(entry))));
  const going = network.filter((entry) => !waiting.has(entry));
  // Cancelled or rescheduled since loading: not sent. Retries stay harmless (the message id is the idempotency key).
  const unsent = await handOver(
    db,
    going.map((entry) => ({ id: entry.mail.messageId, scheduledAt: entry.scheduledAt ?? null })),
  );
  for (const entry of going)
    if (!unsent.has(entry.mail.messageId)) results.set(entry.mail.messageId, () => settle(Promise.resolve(null)));
  const leaving = going.filter((entry) => unsent.has(entry.mail.messageId));
  await bindConnections(db, leaving);
  for (const group of byProvider(leaving)) {
    if (group[0].provider.sendMany && group.length > 1) {
      const answers = sendMany(db, group);
      group.forEach((entry, index) => {
        results.set(entry.mail.messageId, () => {
          const answer = answers[index].then((first) => followRoute(db, entry, first));
          return settle(answer.then((last) => recordAnswer(db, entry, last)));
        });
      });
      continue;
    }
    // An unrecorded-gate slot until the outcome commits bounds what a SIGKILL can send twice.
    for (const entry of group) {
      results.set(entry.mail.messageId, () =>
        settle(
          unrecordedGate().run(async () =>
            recordAnswer(db, entry, await followRoute(db, entry, await send(db, entry))),
          ),
        ),
      );
    }
  }
  return settled;
}
