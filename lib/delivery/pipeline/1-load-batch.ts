import "server-only";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { domains, emailMessages, workspaces } from "@/db/schema";
import { senderDomainRejection } from "@/lib/domain/domains/assert-sender-allowed";
import type { DeliverMessageJob } from "@/lib/records/queue/queue";
import { dkimSigningKeyFromRow, type DkimSigningKey } from "../mime/dkim-keys";
import { bareAddress } from "@/lib/foundation/addresses/sender-address.shared";
import { stillPending } from "@/lib/records/timeline/still-pending";

const m = emailMessages;
/**
 * The columns delivery reads: only these, not the whole row. The rest (variables, metadata, twenty
 * timestamps) would be fetched, parsed and collected again for every message of every batch.
 */
const deliveryColumns = {
  id: m.id,
  workspaceId: m.workspaceId,
  sandbox: m.sandbox,
  groupId: m.groupId,
  from: m.from,
  replyTo: m.replyTo,
  to: m.to,
  toAddresses: m.toAddresses,
  cc: m.cc,
  bcc: m.bcc,
  subject: m.subject,
  bodyHtml: m.bodyHtml,
  bodyText: m.bodyText,
  headers: m.headers,
  attachments: m.attachments,
  // The acceptance time: the start of the accept → sent latency (postwerk_delivery_accept_to_sent_seconds).
  createdAt: m.createdAt,
  // Matched against the job's own time: a job made before a reschedule does nothing.
  scheduledAt: m.scheduledAt,
};

export type Message = { [K in keyof typeof deliveryColumns]: (typeof emailMessages.$inferSelect)[K] };

/** A live message waiting for delivery, with what its workspace says about it. */
export interface Deliverable {
  message: Message;
  paused: boolean;
  trackingEnabled: boolean;
}

/**
 * The batch's messages that are still to deliver, by id, in one query (with their workspace's sending
 * state and tracking flag): live, PENDING, unsent, in the workspace their job names (a job naming
 * another workspace is ignored, as an unknown id is), and due by the job's time: a job whose
 * `scheduledAt` is not the message's (made before a reschedule) is ignored too, the newer job delivers.
 */
export async function loadDeliverableMessages(db: Executor, jobs: DeliverMessageJob[]): Promise<Map<string, Deliverable>> {
  const ids = [...new Set(jobs.map((job) => job.messageId))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ message: deliveryColumns, paused: workspaces.sendingPaused, trackingEnabled: workspaces.trackingEnabled })
    .from(m)
    .innerJoin(workspaces, eq(workspaces.id, m.workspaceId))
    .where(and(inArray(m.id, ids), eq(m.sandbox, false), stillPending, isNull(m.sentAt)));
  const byId = new Map(rows.map((row) => [row.message.id, row]));
  const found = new Map<string, Deliverable>();
  for (const job of jobs) {
    const row = byId.get(job.messageId);
    if (row && row.message.workspaceId === job.workspaceId && sameTime(job.scheduledAt, row.message.scheduledAt)) found.set(job.messageId, row);
  }
  return found;
}

/**
 * The batch's last step before anything leaves; returns the ids still to send. Scheduled messages
 * are marked handed over in one conditional update: only one still PENDING, unsent and at the time
 * its job names is marked. A cancel or reschedule (lib/domain/messages/cancel-message.ts) updates the same row under
 * its lock only while `handed_over_at` is null: whichever commits first wins, so a cancelled message
 * never reaches the provider even when a worker already holds its job, and a message being handed
 * over can no longer be cancelled. A retry finds its own mark and goes on.
 */
export async function handOver(db: Executor, messages: Array<{ id: string; scheduledAt: Date | null }>): Promise<Set<string>> {
  const scheduled = messages.filter((message) => message.scheduledAt);
  const immediate = messages.filter((message) => !message.scheduledAt).map((message) => message.id);
  const [marked, unsent] = await Promise.all([markScheduled(db, scheduled), stillUnsent(db, immediate)]);
  return new Set([...marked, ...unsent]);
}

/** The conditional update for scheduled messages, each matched against its own time in one jsonb parameter. */
async function markScheduled(db: Executor, messages: Array<{ id: string; scheduledAt: Date | null }>): Promise<string[]> {
  if (messages.length === 0) return [];
  const timeOf = JSON.stringify(Object.fromEntries(messages.map((message) => [message.id, message.scheduledAt!.toISOString()])));
  const rows = await db
    .update(m)
    .set({ handedOverAt: sql`coalesce(${m.handedOverAt}, now())` })
    .where(
      and(
        inArray(m.id, messages.map((message) => message.id)),
        stillPending,
        isNull(m.sentAt),
        sql`${m.scheduledAt} = (${timeOf}::jsonb ->> ${m.id})::timestamptz`,
      ),
    )
    .returning({ id: m.id });
  return rows.map((row) => row.id);
}

/**
 * Immediate messages cannot be cancelled (only scheduled ones can), so they need no mark and no row
 * write: a read that drops those another run finished meanwhile, as before scheduled sends existed.
 */
async function stillUnsent(db: Executor, messageIds: string[]): Promise<string[]> {
  if (messageIds.length === 0) return [];
  const rows = await db
    .select({ id: m.id })
    .from(m)
    .where(and(inArray(m.id, messageIds), stillPending, isNull(m.sentAt), isNull(m.scheduledAt)));
  return rows.map((row) => row.id);
}

/** A job's time (ISO, absent for an immediate send) against the message's scheduledAt. */
function sameTime(jobTime: string | undefined, scheduledAt: Date | null): boolean {
  if (!jobTime || !scheduledAt) return !jobTime && !scheduledAt;
  return new Date(jobTime).getTime() === scheduledAt.getTime();
}

/** A message's sender as delivery sees it: whether it may send, and with which DKIM key. */
/** `signingKey` decrypts the domain's DKIM key on first call: only providers that sign MIME ask for it. */
export type SenderCheck = { ok: true; signingKey: () => DkimSigningKey | undefined } | { ok: false; reason: string };

/**
 * The sender check of every message (docs/api.md#decided-errors: a domain unverified between acceptance and
 * delivery fails the message), with one query for all the batch's (workspace, domain) pairs. The DKIM
 * key comes with the row; it is decrypted and parsed once per key (mime/dkim-keys.ts), not per message,
 * and only when the provider signs MIME itself.
 */
export async function checkSenders(db: Executor, messages: Message[]): Promise<Map<string, SenderCheck>> {
  const wanted = new Map<string, { workspaceId: string; domain: string }>();
  const domainOf = new Map<string, string | null>();
  for (const message of messages) {
    const address = bareAddress(message.from);
    const domain = address ? address.slice(address.lastIndexOf("@") + 1).toLowerCase() : null;
    domainOf.set(message.id, domain);
    if (domain) wanted.set(`${message.workspaceId}\n${domain}`, { workspaceId: message.workspaceId, domain });
  }
  const rows =
    wanted.size === 0
      ? []
      : await db
          .select({ workspaceId: domains.workspaceId, name: domains.name, status: domains.status, selector: domains.dkimSelector, sealed: domains.dkimPrivateKeyEncrypted })
          .from(domains)
          .where(
            and(
              inArray(domains.workspaceId, [...new Set([...wanted.values()].map((pair) => pair.workspaceId))]),
              inArray(domains.name, [...new Set([...wanted.values()].map((pair) => pair.domain))]),
            ),
          );
  const byPair = new Map(rows.map((row) => [`${row.workspaceId}\n${row.name}`, row]));
  const checks = new Map<string, SenderCheck>();
  for (const message of messages) {
    const domain = domainOf.get(message.id);
    if (!domain) {
      checks.set(message.id, { ok: false, reason: `The sender "${message.from}" has no address.` });
      continue;
    }
    const row = byPair.get(`${message.workspaceId}\n${domain}`);
    const rejection = senderDomainRejection(domain, row?.status);
    checks.set(message.id, rejection || !row ? { ok: false, reason: rejection! } : { ok: true, signingKey: () => signingKeyOrNothing(domain, row) });
  }
  return checks;
}

/** A key that does not decrypt fails only its own message: the SMTP provider looks it up again and throws. */
function signingKeyOrNothing(domain: string, row: { selector: string; sealed: string }): DkimSigningKey | undefined {
  try {
    return dkimSigningKeyFromRow(domain, row);
  } catch {
    return undefined;
  }
}
