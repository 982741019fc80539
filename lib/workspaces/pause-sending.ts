import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workspaces } from "@/db/schema";
import { notFound } from "@/lib/errors";
import { log } from "@/lib/log";

export interface PauseSendingInput {
  workspaceId: string;
  reason?: string;
  /** Set by the bounce/complaint guard (check-auto-pause.ts); false for an admin's pause. */
  automatic?: boolean;
}

/**
 * Pauses the workspace's live sending (docs/api.md#decided-paused-and-deleted): from now on accepted live messages wait
 * as PAUSED, and delivery jobs already queued hold theirs instead of sending. Sandbox is unaffected.
 * Idempotent: pausing a paused workspace changes nothing (the first reason and time stay).
 */
export async function pauseSending(input: PauseSendingInput): Promise<void> {
  const db = await getDb();
  const now = new Date();
  const automatic = input.automatic ?? false;
  const reason = input.reason?.trim() || (automatic ? "Paused automatically." : "Paused by an admin.");
  const [paused] = await db
    .update(workspaces)
    .set({ sendingPaused: true, pausedReason: reason, pausedAt: now, pausedAutomatically: automatic, updatedAt: now })
    .where(and(eq(workspaces.id, input.workspaceId), eq(workspaces.sendingPaused, false)))
    .returning({ id: workspaces.id });
  if (paused) {
    log.info("workspace sending paused", { workspaceId: input.workspaceId, automatic, reason });
    return;
  }
  const [exists] = await db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, input.workspaceId));
  if (!exists) throw notFound(`Workspace ${input.workspaceId}`, "workspace");
}
