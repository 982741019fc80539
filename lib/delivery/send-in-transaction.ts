/**
 * Step 5 and 6 for transactional providers (the local inbox, the simulator): they only write, so the claim, the
 * send and its record commit together. A batch goes in one transaction of a few statements; a message alone, or
 * each message of a batch whose transaction failed, in its own.
 */
import "server-only";
import type { Db } from "@/db/client";
import { errorFields, log } from "@/lib/foundation/log";
import type { MailToSend } from "./pipeline/4-build-mail";
import { send, type Answer } from "./pipeline/5-send";
import { observeSent, recordInTransaction, recordManyInTransaction } from "./pipeline/6-record";
import { settle, type SendResult, type Settled } from "./pipeline/7-job-results";
import { claim, claimMany } from "./pipeline/claims";
import type { MessageSpans } from "./message-spans";

/**
 * Messages a batch's transaction takes at most. Each transaction holds the embedded database's one connection:
 * per message it was five statements, each a wait for every request behind it; a batch is one transaction of a few.
 */
export const TRANSACTIONAL_BATCH = 50;

/** The batch's messages in one transaction; if it fails, each in its own, so one message cannot fail the others. */
export async function sendBatchInTransaction(
  db: Db,
  entries: MailToSend[],
  spans: MessageSpans,
): Promise<Map<string, Settled>> {
  if (entries.length > 1) {
    const together = await settleAll(sendTogether(db, entries, spans));
    if (together) return together;
  }
  const results = new Map<string, Settled>();
  for (const entry of entries) {
    const id = entry.mail.messageId;
    results.set(id, await settle(spans.within(id, () => sendInTransaction(db, entry))));
  }
  return results;
}

/** The batch's results as settled ones, or null when its transaction failed (nothing of it was committed). */
async function settleAll(sending: Promise<Map<string, SendResult>>): Promise<Map<string, Settled> | null> {
  try {
    const sent = await sending;
    return new Map([...sent].map(([id, result]) => [id, { ok: true as const, result }]));
  } catch (error) {
    log.warn("a batch of transactional sends failed; sending its messages one at a time", errorFields(error));
    return null;
  }
}

/** Claim, send and record every message of the batch, committed together; the results once committed. */
async function sendTogether(db: Db, entries: MailToSend[], spans: MessageSpans): Promise<Map<string, SendResult>> {
  const results = new Map<string, SendResult>();
  const sent = await db.transaction(async (tx) => {
    const claimed = await claimMany(
      tx,
      entries.map((entry) => ({
        id: entry.mail.messageId,
        workspaceId: entry.mail.workspaceId,
        scheduledAt: entry.scheduledAt ?? null,
      })),
    );
    const answered: Array<{ entry: MailToSend; answer: Answer }> = [];
    for (const entry of entries) {
      if (!claimed.has(entry.mail.messageId)) continue;
      answered.push({ entry, answer: await spans.within(entry.mail.messageId, () => send(tx, entry)) });
    }
    await recordManyInTransaction(tx, answered);
    return answered;
  });
  for (const entry of entries) results.set(entry.mail.messageId, null);
  for (const { entry, answer } of sent) {
    results.set(entry.mail.messageId, answer.result);
    observeSent(entry, answer.result);
  }
  return results;
}

/** One message: claimed under the row lock with the job's time, sent and recorded in one transaction. */
export async function sendInTransaction(db: Db, entry: MailToSend): Promise<SendResult> {
  // A cancel or reschedule either committed before (nothing is sent) or waits for this transaction and then finds
  // the message sent.
  const message = {
    id: entry.mail.messageId,
    workspaceId: entry.mail.workspaceId,
    scheduledAt: entry.scheduledAt ?? null,
  };
  const sent = await db.transaction(async (tx) => {
    if (!(await claim(tx, message))) return null;
    const answer = await send(tx, entry);
    await recordInTransaction(tx, entry, answer);
    return answer.result;
  });
  if (sent) observeSent(entry, sent);
  return sent;
}
