import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { emailMessages, workspaces } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { notFound } from "@/lib/foundation/errors";
import { enqueueDeliveries, queueTransaction } from "@/lib/records/queue/queue";
import { log } from "@/lib/foundation/log";
import { recordEventForMessages } from "@/lib/records/timeline/record-event";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";

/** Messages released per transaction: a few statements each, so a million take a thousand short transactions. */
export const RESUME_CHUNK = 1000;

/**
 * Clears the pause, then releases PAUSED messages oldest first, one short transaction per chunk, stopping if paused
 * again. Also releases those left by an interrupted resume, so running it again is the fix.
 */
export async function resumeSending(input: { workspaceId: string; actor: AuditActor }): Promise<{ resumed: number }> {
  const db = await getDb();
  // Committed first: a send holding its workspace row FOR SHARE finishes before, so its message is found below.
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ sendingPaused: workspaces.sendingPaused, pausedReason: workspaces.pausedReason })
      .from(workspaces)
      .where(eq(workspaces.id, input.workspaceId))
      .for("update");
    if (!before) throw notFound(`Workspace ${input.workspaceId}`, "workspace");
    await tx
      .update(workspaces)
      .set({
        sendingPaused: false,
        pausedReason: null,
        pausedAt: null,
        pausedAutomatically: false,
        resumedAt: new Date(),
        // The rates start again from the resume (check-auto-pause.ts), and so does the warning.
        deliverabilityWarning: null,
        deliverabilityWarningAt: null,
        updatedAt: new Date(),
      })
      .where(eq(workspaces.id, input.workspaceId));
    if (before.sendingPaused) {
      await recordAudit(tx, {
        workspaceId: input.workspaceId,
        actor: input.actor,
        action: "workspace.resume",
        target: { type: "workspace", id: input.workspaceId },
        before,
        after: { sendingPaused: false, pausedReason: null },
      });
    }
  });
  invalidateShortLivedCaches();

  let resumed = 0;
  for (;;) {
    const released = await queueTransaction((tx) => releaseChunk(tx, input.workspaceId));
    if (released === null) break;
    resumed += released;
    if (released < RESUME_CHUNK) break;
  }
  if (resumed > 0) log.info("workspace sending resumed", { workspaceId: input.workspaceId, resumed });
  return { resumed };
}

/** One chunk: the oldest PAUSED messages, through the status index. Null when paused again. */
async function releaseChunk(tx: Tx, workspaceId: string): Promise<number | null> {
  const [state] = await tx
    .select({ paused: workspaces.sendingPaused })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .for("share");
  if (!state || state.paused) return null;
  const m = emailMessages;
  const rows = await tx
    .select({ id: m.id, scheduledAt: m.scheduledAt })
    .from(m)
    .where(and(eq(m.workspaceId, workspaceId), eq(m.status, "PAUSED")))
    .orderBy(asc(m.createdAt), asc(m.id))
    .limit(RESUME_CHUNK)
    .for("update", { skipLocked: true });
  const ids = rows.map((row) => row.id);
  await recordEventForMessages(tx, {
    workspaceId,
    messageIds: ids,
    code: "EMAIL_MESSAGE_RESUMED",
    message: "Sending resumed: the message goes on to delivery.",
  });
  // A scheduled message whose time has not come keeps waiting for it (the queue holds its job).
  await enqueueDeliveries(
    tx,
    rows.map((row) =>
      row.scheduledAt
        ? { workspaceId, messageId: row.id, scheduledAt: row.scheduledAt.toISOString() }
        : { workspaceId, messageId: row.id },
    ),
  );
  return ids.length;
}
