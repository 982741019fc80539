import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workspaces } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { notFound } from "@/lib/foundation/errors";
import { log } from "@/lib/foundation/log";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";

export interface PauseSendingInput {
  workspaceId: string;
  reason?: string;
  /** Set by the bounce/complaint guard (check-auto-pause.ts); false for an admin's pause. */
  automatic?: boolean;
  actor: AuditActor;
}

/**
 * Accepted live messages then wait as PAUSED and queued jobs hold theirs (docs/api.md#decided-paused-and-deleted);
 * sandbox is unaffected. Idempotent: the first reason and time stay.
 */
export async function pauseSending(input: PauseSendingInput): Promise<void> {
  const db = await getDb();
  const now = new Date();
  const automatic = input.automatic ?? false;
  const reason = input.reason?.trim() || (automatic ? "Paused automatically." : "Paused by an admin.");
  const paused = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(workspaces)
      .set({ sendingPaused: true, pausedReason: reason, pausedAt: now, pausedAutomatically: automatic, updatedAt: now })
      .where(and(eq(workspaces.id, input.workspaceId), eq(workspaces.sendingPaused, false)))
      .returning({ id: workspaces.id });
    if (row) {
      await recordAudit(tx, {
        workspaceId: row.id,
        actor: input.actor,
        action: "workspace.pause",
        target: { type: "workspace", id: row.id },
        before: { sendingPaused: false },
        after: { sendingPaused: true, pausedReason: reason, pausedAutomatically: automatic },
      });
    }
    return row;
  });
  invalidateShortLivedCaches();
  if (paused) {
    log.info("workspace sending paused", { workspaceId: input.workspaceId, automatic, reason });
    return;
  }
  const [exists] = await db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, input.workspaceId));
  if (!exists) throw notFound(`Workspace ${input.workspaceId}`, "workspace");
}
