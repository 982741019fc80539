import "server-only";
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { getDb } from "@/db/client";
import { webhookEvents, workspaces } from "@/db/schema";
import { env } from "@/lib/foundation/env";
import { newId } from "@/lib/foundation/ids";
import { log } from "@/lib/foundation/log";

export interface RecentCounts {
  sent: number;
  bounced: number;
  complained: number;
}

/** Where the warning sits: half of each automatic pause threshold (docs/deliverability.md#complaint-guard). */
export const WARNING_SHARE = 0.5;

export const DELIVERABILITY_WARNING_EVENT = "workspace.deliverability_warning";

/** 0.0006 → "0.06%". */
function percent(rate: number): string {
  const value = rate * 100;
  return `${Number(value.toFixed(value < 1 ? 2 : 1))}%`;
}

/**
 * The warning for these counts, or null: a complaint or bounce rate above half its pause threshold, over the same
 * window and with the same minimum of messages as the pause, so a warning always comes before a pause.
 */
export function deliverabilityWarningFor({ sent, bounced, complained }: RecentCounts): {
  reason: string;
  data: Record<string, unknown>;
} | null {
  const settings = env();
  if (sent === 0 || sent < settings.AUTO_PAUSE_MIN_MESSAGES) return null;
  const rates = [
    { kind: "complaint", rate: complained / sent, threshold: settings.AUTO_PAUSE_COMPLAINT_RATE },
    { kind: "bounce", rate: bounced / sent, threshold: settings.AUTO_PAUSE_BOUNCE_RATE },
  ];
  const crossed = rates.find(({ rate, threshold }) => rate > threshold * WARNING_SHARE);
  if (!crossed) return null;
  const window = `the last ${sent.toLocaleString("en-US")} live messages`;
  return {
    reason: `The ${crossed.kind} rate is ${percent(crossed.rate)} over ${window}, past half the ${percent(crossed.threshold)} at which sending pauses automatically.`,
    data: {
      kind: crossed.kind,
      rate: crossed.rate,
      warnAt: crossed.threshold * WARNING_SHARE,
      pauseAt: crossed.threshold,
      sent,
      bounced,
      complained,
    },
  };
}

/**
 * After a bounce or complaint (with the pause check): raises the warning when the rates cross half a threshold, with
 * its `workspace.deliverability_warning` webhook event in the same transaction, once per crossing; clears it when
 * they are back under. Answers whether a warning was raised now.
 */
export async function updateDeliverabilityWarning(workspaceId: string, counts: RecentCounts): Promise<boolean> {
  const warning = deliverabilityWarningFor(counts);
  const db = await getDb();
  const w = workspaces;
  if (!warning) {
    await db
      .update(w)
      .set({ deliverabilityWarning: null, deliverabilityWarningAt: null })
      .where(and(eq(w.id, workspaceId), isNotNull(w.deliverabilityWarning)));
    return false;
  }
  const now = new Date();
  const raised = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(w)
      .set({ deliverabilityWarning: warning.reason, deliverabilityWarningAt: now })
      .where(and(eq(w.id, workspaceId), isNull(w.deliverabilityWarning)))
      .returning({ id: w.id });
    if (!row) return false;
    await tx.insert(webhookEvents).values({
      id: newId("webhookEvent", now),
      workspaceId,
      type: DELIVERABILITY_WARNING_EVENT,
      data: { workspaceId, reason: warning.reason, ...warning.data },
      createdAt: now,
    });
    return true;
  });
  if (raised) log.warn("deliverability warning raised", { workspaceId, reason: warning.reason });
  return raised;
}

/** The dashboard banner's read: the warning and since when, or null (one primary-key lookup a page). */
export async function readDeliverabilityWarning(workspaceId: string): Promise<{ reason: string; at: Date } | null> {
  const [row] = await (
    await getDb()
  )
    .select({ reason: workspaces.deliverabilityWarning, at: workspaces.deliverabilityWarningAt })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return row?.reason && row.at ? { reason: row.reason, at: row.at } : null;
}
