import "server-only";
import { and, asc, count, eq, gte, isNotNull, max, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workflowRuns, workflows } from "@/db/schema";

/** How far back the list counts runs. */
export const RECENT_RUN_DAYS = 30;

export interface DashboardWorkflow {
  id: string;
  name: string;
  key: string | null;
  enabled: boolean;
  stepCount: number;
  /** Runs (live and sandbox, skipped included) started in the last RECENT_RUN_DAYS days. */
  recentRuns: number;
  /** The newest of those runs; null when there was none in the window. */
  lastRunAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** By name, run figures over RECENT_RUN_DAYS only: an all-time "last run" would read every run (no index on workflow_id). */
export async function listDashboardWorkflows(workspaceId: string, now = new Date()): Promise<DashboardWorkflow[]> {
  const db = await getDb();
  const since = new Date(now.getTime() - RECENT_RUN_DAYS * 86_400_000);
  const [rows, stats] = await Promise.all([
    db
      .select({
        id: workflows.id,
        name: workflows.name,
        key: workflows.key,
        enabled: workflows.enabled,
        stepCount: sql<number>`jsonb_array_length(${workflows.steps})`.mapWith(Number),
        createdAt: workflows.createdAt,
        updatedAt: workflows.updatedAt,
      })
      .from(workflows)
      .where(eq(workflows.workspaceId, workspaceId))
      .orderBy(asc(workflows.name), asc(workflows.id)),
    db
      .select({ workflowId: workflowRuns.workflowId, total: count(), lastRunAt: max(workflowRuns.createdAt) })
      .from(workflowRuns)
      .where(
        and(
          eq(workflowRuns.workspaceId, workspaceId),
          gte(workflowRuns.createdAt, since),
          isNotNull(workflowRuns.workflowId),
        ),
      )
      .groupBy(workflowRuns.workflowId),
  ]);
  const statsOf = new Map(stats.map((row) => [row.workflowId, row]));
  return rows.map((row) => {
    const stat = statsOf.get(row.id);
    return {
      ...row,
      recentRuns: stat ? Number(stat.total) : 0,
      lastRunAt: stat?.lastRunAt ? new Date(stat.lastRunAt) : null,
    };
  });
}
