import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { getDb, type Db, type Executor } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { loadMessageAttachments } from "@/lib/attachments/load-message-attachments";
import { assertSenderDomainVerified } from "@/lib/domains/assert-sender-allowed";
import { AppError } from "@/lib/errors";
import type { DeliverMessageJob } from "@/lib/jobs/queue";
import { log } from "@/lib/log";
import type { EventCode } from "@/lib/messages/event-codes.shared";
import { recordEvent } from "@/lib/messages/record-event";
import { filterSuppressedRecipients, recordSuppressed, type FilteredRecipients, type SuppressedRecipient } from "@/lib/suppressions/filter-recipients";
import { applyTracking } from "@/lib/tracking/apply-tracking";
import { oneClickUnsubscribeUrl } from "@/lib/unsubscribe/token";
import { buildMime, type MailFields, type MimeAttachment } from "./build-mime";
import { holdIfPaused } from "./hold-if-paused";
import { bareAddress } from "./mime.shared";
import type { DeliveryProvider, OutboundMail, ProviderResult } from "./provider";
import { getDeliveryProvider } from "./registry";

type Message = typeof emailMessages.$inferSelect;

export interface DeliverContext {
  /** 0 on the first try; the queue's retry count after. */
  attempt: number;
  /** The queue gives up after this attempt: a transient provider failure is then recorded as FAILED. */
  lastAttempt?: boolean;
  /** Overrides the configured provider (tests; later perhaps a per-workspace choice). */
  provider?: DeliveryProvider;
}

/**
 * The delivery job (DECISIONS.md "Sending"): hands a live PENDING message to the provider, then records
 * SENT (sentAt, status SUCCEEDED) and, when the provider knows it, DELIVERED. Sandbox messages are never
 * handed to a provider. Claim → send → record: each run locks the message row and re-checks it is still
 * unsent before sending, so a retried or duplicated job is a no-op (ARCHITECTURE.md rule 3). Throws to
 * have the queue retry: a transient provider failure or an unexpected error.
 */
export async function deliverMessage(job: DeliverMessageJob, context: DeliverContext): Promise<void> {
  const db = await getDb();
  const [message] = await db
    .select()
    .from(emailMessages)
    .where(and(eq(emailMessages.id, job.messageId), eq(emailMessages.workspaceId, job.workspaceId)));
  if (!message || message.sandbox || message.status !== "PENDING" || message.sentAt) return;
  // A paused workspace's message waits as PAUSED; resuming enqueues a new job (docs/delivery.md).
  if (await holdIfPaused(db, message)) return;
  const provider = context.provider ?? getDeliveryProvider();

  // Unsubscribed (group mail) and suppression-listed recipients are dropped; with nobody left the
  // message is done without a send (DECISIONS.md "Unsubscribe groups, suppression").
  const recipients = await filterSuppressedRecipients(db, message);
  if (recipients.remaining === 0 && recipients.suppressed.length > 0) {
    await db.transaction(async (tx) => {
      if (await claim(tx, message)) await recordSuppressed(tx, message, recipients.suppressed, { nobodyLeft: true });
    });
    return;
  }

  // A domain unverified between acceptance and delivery fails the message (DECISIONS.md "Errors").
  const rejection = await senderRejection(db, message);
  if (rejection) {
    await db.transaction(async (tx) => {
      if (await claim(tx, message)) await recordFailure(tx, message, "EMAIL_MESSAGE_INVALID_SENDER_ERROR", rejection);
    });
    return;
  }

  // Uploaded attachments are read from storage; bytes purged while the message waited fail it.
  const loaded = await loadMessageAttachments(db, message.workspaceId, message.attachments);
  if (!loaded.ok) {
    await db.transaction(async (tx) => {
      if (await claim(tx, message)) await recordFailure(tx, message, "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", loaded.reason);
    });
    return;
  }
  const fields = mailFields(message, loaded.attachments, recipients);
  // Open and click tracking rewrites only what the provider gets; the stored bodyHtml stays as rendered.
  fields.html = await applyTracking(db, message, fields.html);
  const mail: OutboundMail = {
    workspaceId: message.workspaceId,
    messageId: message.id,
    fields,
    mime: await buildMime(message.id, fields),
  };
  const result = await sendAndRecord(db, mail, { message, provider, context, suppressed: recipients.suppressed });
  if (result?.outcome === "retry" && !context.lastAttempt) {
    throw new Error(`${capitalize(provider.description)} asked to try again later: ${result.diagnostic}`);
  }
  if (result) log.info("message handed to provider", { messageId: message.id, provider: provider.name, outcome: result.outcome });
}

interface Run {
  message: Message;
  provider: DeliveryProvider;
  context: DeliverContext;
  suppressed: SuppressedRecipient[];
}

/** Claim → send → record. Returns null when another run had already claimed the message. */
async function sendAndRecord(db: Db, mail: OutboundMail, run: Run): Promise<ProviderResult | null> {
  const { message, provider, context } = run;
  const startedAt = new Date();
  if (provider.transactional) {
    // All the provider does is write in this transaction: claim, send and record commit together.
    return db.transaction(async (tx) => {
      if (!(await claim(tx, message))) return null;
      const result = await provider.send(mail, { db: tx, attempt: context.attempt });
      await recordResult(tx, { ...run, result, startedAt });
      return result;
    });
  }
  // Never hold a transaction across a network call (on PGlite it would stall the whole database). This
  // check is no lock: pg-boss runs one job in one worker at a time, and the message id is the
  // idempotency key such a provider gets, for the rare job retried after its worker stalled.
  if (!(await claim(db, message))) return null;
  const result = await provider.send(mail, { db, attempt: context.attempt });
  await db.transaction(async (tx) => {
    if (await claim(tx, message)) return recordResult(tx, { ...run, result, startedAt });
    log.warn("message was recorded by another run meanwhile", { messageId: message.id, provider: provider.name });
  });
  return result;
}

/** Locks the message row (in a transaction) and says whether it is still waiting for delivery. */
async function claim(db: Executor, message: Message): Promise<boolean> {
  const m = emailMessages;
  const unsent = and(eq(m.id, message.id), eq(m.workspaceId, message.workspaceId), eq(m.status, "PENDING"), isNull(m.sentAt));
  const rows = await db.select({ id: m.id }).from(m).where(unsent).for("update");
  return rows.length === 1;
}

interface Outcome extends Run {
  result: ProviderResult;
  startedAt: Date;
}

async function recordResult(tx: Executor, { message, provider, result, startedAt, context, suppressed }: Outcome): Promise<void> {
  const who = capitalize(provider.description);
  if (suppressed.length > 0 && (result.outcome !== "retry" || context.lastAttempt)) {
    // Placed just before "sent" (see sentAt below) so the timeline reads in order.
    const delivered = result.outcome === "accepted" ? result.delivered?.at.getTime() : undefined;
    await recordSuppressed(tx, message, suppressed, { at: new Date(Math.min(startedAt.getTime(), delivered ?? Infinity) - 2) });
  }
  if (result.outcome === "failed") {
    return recordFailure(tx, message, "EMAIL_MESSAGE_PROVIDER_ERROR", `${who} rejected the message: ${result.diagnostic}`);
  }
  if (result.outcome === "retry") {
    if (!context.lastAttempt) return;
    const tries = context.attempt + 1;
    const sentence = `${who} did not take the message after ${tries} attempt${tries === 1 ? "" : "s"}: ${result.diagnostic}`;
    return recordFailure(tx, message, "EMAIL_MESSAGE_PROVIDER_ERROR", sentence);
  }
  const { delivered, referenceId } = result;
  // The timeline orders by time: "sent" must read before "delivered", even within one millisecond.
  const sentAt =
    delivered && delivered.at.getTime() <= startedAt.getTime() ? new Date(delivered.at.getTime() - 1) : startedAt;
  const ids = { workspaceId: message.workspaceId, messageId: message.id };
  await tx
    .update(emailMessages)
    .set({ referenceId })
    .where(and(eq(emailMessages.id, message.id), eq(emailMessages.workspaceId, message.workspaceId)));
  await recordEvent(tx, {
    ...ids,
    code: "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
    message: `Sent through ${provider.description}.`,
    at: sentAt,
    // One SENT per provider and message, even if two runs ever raced past the claim.
    providerEventId: `${provider.name}:sent`,
    details: { provider: provider.name, referenceId },
  });
  if (!delivered) return;
  await recordEvent(tx, {
    ...ids,
    code: "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
    message: delivered.message,
    at: delivered.at,
    providerEventId: `${provider.name}:delivered`,
    details: { provider: provider.name },
  });
}

async function recordFailure(tx: Executor, message: Message, code: EventCode, sentence: string): Promise<void> {
  await recordEvent(tx, { workspaceId: message.workspaceId, messageId: message.id, code, message: sentence });
}

/** The reason the sender may no longer send, or null. */
async function senderRejection(db: Executor, message: Message): Promise<string | null> {
  const address = bareAddress(message.from);
  if (!address) return `The sender "${message.from}" has no address.`;
  try {
    await assertSenderDomainVerified(db, message.workspaceId, address);
    return null;
  } catch (error) {
    if (error instanceof AppError && error.code === "EMAIL_MESSAGE_INVALID_SENDER_ERROR") return error.message;
    throw error;
  }
}

function mailFields(message: Message, attachments: MimeAttachment[], recipients: FilteredRecipients): MailFields {
  const references = Object.entries(message.headers).find(([key]) => key.toLowerCase() === "references")?.[1];
  // The same address as the body's link (lib/messages/prepare-message.ts): the first recipient as sent.
  const linkAddress = message.toAddresses[0] ?? bareAddress([...message.to, ...message.cc, ...message.bcc][0] ?? "") ?? "";
  return {
    from: message.from,
    to: recipients.to,
    cc: recipients.cc,
    bcc: recipients.bcc,
    replyTo: message.replyTo,
    subject: message.subject,
    html: message.bodyHtml,
    text: message.bodyText,
    references: references ?? null,
    attachments,
    listUnsubscribe: message.groupId && linkAddress ? oneClickUnsubscribeUrl(message.id, linkAddress.toLowerCase()) : null,
  };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
