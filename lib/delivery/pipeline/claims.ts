import "server-only";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { stillPending } from "@/lib/records/timeline/still-pending";

// The checks that a message is still to deliver and is this run's: the row lock a recording or a
// transactional send takes (claim), and the mark a network send takes before anything leaves (handOver).

const m = emailMessages;

/** What a claim needs to know about the message. */
export interface ClaimedMessage {
  id: string;
  workspaceId: string;
  /** When given (delivery's own claims), the message must still be at this time: not rescheduled meanwhile. */
  scheduledAt?: Date | null;
}

const unsent = (message: ClaimedMessage) => {
  const atItsTime =
    message.scheduledAt === undefined
      ? undefined
      : message.scheduledAt === null
        ? isNull(m.scheduledAt)
        : eq(m.scheduledAt, message.scheduledAt);
  return and(
    eq(m.id, message.id),
    eq(m.workspaceId, message.workspaceId),
    eq(m.status, "PENDING"),
    isNull(m.sentAt),
    atItsTime,
  );
};

/** Locks the message row (in a transaction) and says whether it is still waiting for delivery. */
export async function claim(db: Executor, message: ClaimedMessage): Promise<boolean> {
  const rows = await db.select({ id: m.id }).from(m).where(unsent(message)).for("update");
  return rows.length === 1;
}

/**
 * The claim of an accepted send, made by the update that stores its referenceId: one round trip, as
 * the UPDATE takes the same row lock as SELECT … FOR UPDATE. False when the message is no longer unsent.
 */
export async function claimStoringReferenceId(
  tx: Executor,
  message: ClaimedMessage,
  referenceId: string,
): Promise<boolean> {
  const rows = await tx.update(m).set({ referenceId }).where(unsent(message)).returning({ id: m.id });
  return rows.length === 1;
}

/**
 * The batch's last step before anything leaves; returns the ids still to send. Scheduled messages
 * are marked handed over in one conditional update: only one still PENDING, unsent and at the time
 * its job names is marked. A cancel or reschedule (lib/domain/messages/cancel-message.ts) updates the same row under
 * its lock only while `handed_over_at` is null: whichever commits first wins, so a cancelled message
 * never reaches the provider even when a worker already holds its job, and a message being handed
 * over can no longer be cancelled. A retry finds its own mark and goes on.
 */
export async function handOver(
  db: Executor,
  messages: Array<{ id: string; scheduledAt: Date | null }>,
): Promise<Set<string>> {
  const scheduled = messages.filter((message) => message.scheduledAt);
  const immediate = messages.filter((message) => !message.scheduledAt).map((message) => message.id);
  const [marked, unsent] = await Promise.all([markScheduled(db, scheduled), stillUnsent(db, immediate)]);
  return new Set([...marked, ...unsent]);
}

/** The conditional update for scheduled messages, each matched against its own time in one jsonb parameter. */
async function markScheduled(
  db: Executor,
  messages: Array<{ id: string; scheduledAt: Date | null }>,
): Promise<string[]> {
  if (messages.length === 0) return [];
  const timeOf = JSON.stringify(
    Object.fromEntries(messages.map((message) => [message.id, message.scheduledAt!.toISOString()])),
  );
  const rows = await db
    .update(m)
    .set({ handedOverAt: sql`coalesce(${m.handedOverAt}, now())` })
    .where(
      and(
        inArray(
          m.id,
          messages.map((message) => message.id),
        ),
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
