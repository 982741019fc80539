import "server-only";
import { and, count, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages, workspaces } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";

export interface SendingState {
  paused: boolean;
  reason: string | null;
  pausedAt: Date | null;
  automatic: boolean;
  /** Live messages waiting as PAUSED (index-backed count on (workspace_id, status, …)). */
  pausedMessages: number;
  /** The complaint or bounce rate past half its pause threshold (docs/deliverability.md#complaint-guard), or null. */
  warning: string | null;
  warningAt: Date | null;
}

/** Whether the workspace sends, and if not since when, why, and how much is waiting (Settings → Sending). */
export async function getSendingState(workspaceId: string): Promise<SendingState> {
  const db = await getDb();
  const [workspace] = await db
    .select({
      paused: workspaces.sendingPaused,
      reason: workspaces.pausedReason,
      pausedAt: workspaces.pausedAt,
      automatic: workspaces.pausedAutomatically,
      warning: workspaces.deliverabilityWarning,
      warningAt: workspaces.deliverabilityWarningAt,
    })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  if (!workspace) throw notFound(`Workspace ${workspaceId}`);
  if (!workspace.paused) return { ...workspace, pausedMessages: 0 };
  const [waiting] = await db
    .select({ value: count() })
    .from(emailMessages)
    .where(and(eq(emailMessages.workspaceId, workspaceId), eq(emailMessages.status, "PAUSED")));
  return { ...workspace, pausedMessages: waiting?.value ?? 0 };
}
