import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { emailMessages, workspaces } from "@/db/schema";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { heldSentence, lockPausedWorkspaces } from "@/lib/domain/workspaces/sending-state";

/**
 * Called by the delivery job before anything else: when the message's workspace is paused, a PENDING
 * message (its job queued before the pause) moves to PAUSED instead of being sent, and the job ends;
 * resumeSending enqueues a new one. Returns true when the message is held. The common case (not
 * paused) costs one primary-key read; the hold itself re-checks under the workspace lock, so a resume
 * running at the same moment either sees the message PAUSED or this finds the workspace resumed.
 */
export async function holdIfPaused(db: Db, message: { id: string; workspaceId: string }): Promise<boolean> {
  const [workspace] = await db
    .select({ paused: workspaces.sendingPaused })
    .from(workspaces)
    .where(eq(workspaces.id, message.workspaceId));
  if (!workspace?.paused) return false;
  return db.transaction(async (tx) => {
    const paused = await lockPausedWorkspaces(tx, [message.workspaceId]);
    if (!paused.has(message.workspaceId)) return false;
    const m = emailMessages;
    const [waiting] = await tx
      .select({ id: m.id })
      .from(m)
      .where(and(eq(m.id, message.id), eq(m.workspaceId, message.workspaceId), eq(m.status, "PENDING"), isNull(m.sentAt)))
      .for("update");
    if (waiting) {
      await recordEvent(tx, {
        workspaceId: message.workspaceId,
        messageId: message.id,
        code: "EMAIL_MESSAGE_PAUSED",
        message: heldSentence(paused.get(message.workspaceId) ?? null),
      });
    }
    return true;
  });
}
