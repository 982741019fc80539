import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { assertActorRole, type Actor } from "@/lib/foundation/access/actor";
import { notFound } from "@/lib/foundation/errors";
import { notFoundOrPurged } from "./not-found-or-purged";
import { recordEvent, recordEventForMessages } from "@/lib/records/timeline/record-event";
import { getMessageOrThrow, type EmailMessageRow } from "./get-message-or-throw";
import { assertWaiting, notWaitingReason } from "./waiting-state";

const m = emailMessages;
const waitingColumns = {
  id: m.id,
  status: m.status,
  sandbox: m.sandbox,
  sentAt: m.sentAt,
  handedOverAt: m.handedOverAt,
  scheduledAt: m.scheduledAt,
};

/**
 * A message still waiting ends CANCELLED (docs/api.md#decided-scheduled-sends); otherwise 409 naming its state. The row
 * is locked first, so this and delivery's hand-off cannot both win.
 */
export async function cancelMessage(input: {
  workspaceId: string;
  messageId: string;
  by: string;
  actor?: Actor;
}): Promise<EmailMessageRow> {
  if (input.actor) assertActorRole(input.actor, "ADMIN", "cancel messages");
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select(waitingColumns)
      .from(m)
      .where(and(eq(m.workspaceId, input.workspaceId), eq(m.id, input.messageId)))
      .for("update");
    if (!row) throw await notFoundOrPurged(tx, input.workspaceId, input.messageId, "Email message");
    assertWaiting(row);
    await recordEvent(tx, {
      workspaceId: input.workspaceId,
      messageId: row.id,
      code: "EMAIL_MESSAGE_CANCELLED",
      message: `Cancelled ${input.by} before delivery.`,
    });
  });
  return getMessageOrThrow(input.workspaceId, input.messageId);
}

export interface BatchCancellation {
  batchId: string;
  cancelled: string[];
  /** The batch's other messages and why each was left as it is (sent, failed, already cancelled…). */
  notCancelled: Array<{ id: string; status: string; reason: string }>;
}

/** One transaction, set-based; answered even when nothing was left to cancel, so a retry after a timeout is harmless. */
export async function cancelBatch(input: {
  workspaceId: string;
  batchId: string;
  by: string;
}): Promise<BatchCancellation> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const rows = await lockBatchMessages(tx, input.workspaceId, input.batchId);
    if (rows.length === 0) throw notFound(`Batch ${input.batchId}`, "id");
    const cancelled = rows.filter((row) => notWaitingReason(row) === null).map((row) => row.id);
    await recordEventForMessages(tx, {
      workspaceId: input.workspaceId,
      messageIds: cancelled,
      code: "EMAIL_MESSAGE_CANCELLED",
      message: `Cancelled with its batch ${input.by} before delivery.`,
    });
    const notCancelled = rows
      .map((row) => ({ id: row.id, status: row.status, reason: notWaitingReason(row) }))
      .filter((row): row is { id: string; status: typeof row.status; reason: string } => row.reason !== null);
    return { batchId: input.batchId, cancelled, notCancelled };
  });
}

/** The batch's messages, locked in batch order (a stable lock order: two cancels never deadlock). */
async function lockBatchMessages(tx: Tx, workspaceId: string, batchId: string) {
  return tx
    .select(waitingColumns)
    .from(m)
    .where(and(eq(m.workspaceId, workspaceId), eq(m.batchId, batchId)))
    .orderBy(asc(m.batchIndex), asc(m.id))
    .for("update");
}
