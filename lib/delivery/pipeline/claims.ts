import "server-only";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Executor, Tx } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { stillPending } from "@/lib/records/timeline/still-pending";

// A message is still to deliver and this run's: the row lock of claim, the mark of handOver before anything leaves.

const m = emailMessages;

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
 * `claim` for many messages in one statement: locks their rows and returns the ids still waiting, each in its own
 * workspace and, where given, still at its scheduled time.
 */
export async function claimMany(tx: Tx, messages: ClaimedMessage[]): Promise<Set<string>> {
  if (messages.length === 0) return new Set();
  const rows = await tx
    .select({ id: m.id, workspaceId: m.workspaceId, scheduledAt: m.scheduledAt })
    .from(m)
    .where(
      and(
        inArray(
          m.id,
          messages.map((message) => message.id),
        ),
        eq(m.status, "PENDING"),
        isNull(m.sentAt),
      ),
    )
    .orderBy(m.id) // one lock order for every run
    .for("update");
  const found = new Map(rows.map((row) => [row.id, row]));
  const claimed = messages.filter((message) => {
    const row = found.get(message.id);
    if (!row || row.workspaceId !== message.workspaceId) return false;
    if (message.scheduledAt === undefined) return true;
    return (row.scheduledAt?.getTime() ?? null) === (message.scheduledAt?.getTime() ?? null);
  });
  return new Set(claimed.map((message) => message.id));
}

/** The claim as the update that stores the referenceId: one round trip, the same row lock as FOR UPDATE. */
export async function claimStoringReferenceId(tx: Tx, message: ClaimedMessage, referenceId: string): Promise<boolean> {
  const rows = await tx.update(m).set({ referenceId }).where(unsent(message)).returning({ id: m.id });
  return rows.length === 1;
}

/**
 * Returns the ids still to send. Scheduled messages are marked handed over by a conditional update; a cancel or
 * reschedule needs `handed_over_at` null, so whichever commits first wins. A retry finds its own mark.
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

// Immediate messages cannot be cancelled, so they need no mark: a read drops those another run finished.
async function stillUnsent(db: Executor, messageIds: string[]): Promise<string[]> {
  if (messageIds.length === 0) return [];
  const rows = await db
    .select({ id: m.id })
    .from(m)
    .where(and(inArray(m.id, messageIds), stillPending, isNull(m.sentAt), isNull(m.scheduledAt)));
  return rows.map((row) => row.id);
}
