import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { workspaces } from "@/db/schema";

/**
 * The paused workspaces among `workspaceIds`, read inside the caller's transaction with FOR SHARE.
 * The lock is what keeps a message accepted as PAUSED from being missed by a concurrent resume:
 * resumeSending's UPDATE of the workspace row waits for this transaction, and only then looks for
 * PAUSED messages. Rows of workspaces that are not paused are not locked (normal sends never wait).
 */
export async function lockPausedWorkspaces(tx: Executor, workspaceIds: string[]): Promise<Map<string, string | null>> {
  if (workspaceIds.length === 0) return new Map();
  const rows = await tx
    .select({ id: workspaces.id, reason: workspaces.pausedReason })
    .from(workspaces)
    .where(and(inArray(workspaces.id, workspaceIds), eq(workspaces.sendingPaused, true)))
    .for("share");
  return new Map(rows.map((row) => [row.id, row.reason]));
}

/** The timeline sentence of a message held because its workspace's sending is paused. */
export function heldSentence(reason: string | null): string {
  const why = reason ? ` (${reason.replace(/\.$/, "")})` : "";
  return `Held: sending is paused for this workspace${why}. The message goes out when sending resumes.`;
}
