import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { workspaces } from "@/db/schema";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { heldSentence, lockPausedWorkspaces } from "@/lib/domain/workspaces/sending-state";
import { claim } from "./claims";

/**
 * Step 2: true when the message moved to PAUSED (resumeSending enqueues a new job). Re-checked under the workspace
 * lock, so a concurrent resume either sees the message PAUSED or this finds the workspace resumed.
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
    // Without its scheduledAt: a waiting message is held whatever time its job names.
    if (await claim(tx, { id: message.id, workspaceId: message.workspaceId })) {
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
