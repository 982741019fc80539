import "server-only";
import { and, count, desc, eq, isNotNull, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages, workspaces } from "@/db/schema";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { env } from "@/lib/foundation/env";
import { log } from "@/lib/foundation/log";
import { updateDeliverabilityWarning, type RecentCounts } from "./deliverability-warning";
import { pauseSending } from "./pause-sending";

/** The window of docs/api.md#decided-paused-and-deleted (PAUSED): the workspace's last 1,000 live messages. */
export const AUTO_PAUSE_WINDOW = 1000;

type Counts = RecentCounts;

export interface AutoPauseCheck extends Counts {
  paused: boolean;
  reason?: string;
}

/**
 * After a bounce or complaint: over the last AUTO_PAUSE_WINDOW live messages handed over, a rate strictly above the
 * limit pauses sending, never before AUTO_PAUSE_MIN_MESSAGES (one complaint must not pause a small sender).
 */
export async function checkAutoPause(input: { workspaceId: string }): Promise<AutoPauseCheck> {
  const db = await getDb();
  const [workspace] = await db
    .select({ paused: workspaces.sendingPaused, resumedAt: workspaces.resumedAt })
    .from(workspaces)
    .where(eq(workspaces.id, input.workspaceId));
  if (!workspace || workspace.paused) return { paused: false, sent: 0, bounced: 0, complained: 0 };
  const counts = await recentCounts(input.workspaceId, workspace.resumedAt);
  // The warning at half the thresholds comes first, so a workspace about to pause has been told (and stays told).
  await updateDeliverabilityWarning(input.workspaceId, counts);
  const reason = autoPauseReason(counts);
  if (!reason) return { paused: false, ...counts };
  await pauseSending({ workspaceId: input.workspaceId, reason, automatic: true, actor: AUDIT_SYSTEM_ACTOR });
  log.warn("workspace paused automatically", { workspaceId: input.workspaceId, ...counts, reason });
  return { paused: true, reason, ...counts };
}

/** Those recorded before the last resume are left out (the admin saw them); the messages still count as sent. */
async function recentCounts(workspaceId: string, resumedAt: Date | null): Promise<Counts> {
  const db = await getDb();
  const m = emailMessages;
  const after = (column: typeof m.firstBouncedAt) =>
    resumedAt
      ? sql<Date | null>`case when ${column} > ${resumedAt.toISOString()}::timestamptz then ${column} end`
      : sql<Date | null>`${column}`;
  const recent = db
    .select({
      bouncedAt: after(m.firstBouncedAt).as("bounced_at"),
      complainedAt: after(m.firstComplainedAt).as("complained_at"),
    })
    .from(m)
    .where(and(eq(m.workspaceId, workspaceId), eq(m.sandbox, false), isNotNull(m.sentAt)))
    .orderBy(desc(m.createdAt), desc(m.id))
    .limit(AUTO_PAUSE_WINDOW)
    .as("recent");
  const [counts] = await db
    .select({ sent: count(), bounced: count(recent.bouncedAt), complained: count(recent.complainedAt) })
    .from(recent);
  return counts;
}

/** The reason to pause, or null. Exported for its wording (tests). */
export function autoPauseReason({ sent, bounced, complained }: Counts): string | null {
  const settings = env();
  if (sent === 0 || sent < settings.AUTO_PAUSE_MIN_MESSAGES) return null;
  const window = `the last ${sent.toLocaleString("en-US")} live messages`;
  const bounceRate = bounced / sent;
  if (bounceRate > settings.AUTO_PAUSE_BOUNCE_RATE) {
    return `Paused automatically: bounce rate ${percent(bounceRate)} over ${window} passed the ${percent(settings.AUTO_PAUSE_BOUNCE_RATE)} threshold.`;
  }
  const complaintRate = complained / sent;
  if (complaintRate > settings.AUTO_PAUSE_COMPLAINT_RATE) {
    return `Paused automatically: complaint rate ${percent(complaintRate)} over ${window} passed the ${percent(settings.AUTO_PAUSE_COMPLAINT_RATE)} threshold.`;
  }
  return null;
}

/** 0.123 → "12.3%", 0.001 → "0.1%", 0.0015 → "0.15%". */
function percent(rate: number): string {
  const value = rate * 100;
  return `${Number(value.toFixed(value < 1 ? 2 : 1))}%`;
}
