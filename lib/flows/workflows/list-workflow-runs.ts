import "server-only";
import { and, count, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages, workflowRuns, workflows } from "@/db/schema";
import { keysetPage } from "@/db/keyset";
import { parseKeysetPageQuery, type KeysetPageQuery } from "@/lib/foundation/pagination";
import type { WorkflowRunRow } from "./get-workflow-run-or-throw";

export const WORKFLOW_RUNS_PAGE_SIZE = 25;

export type WorkflowRunListItem = WorkflowRunRow & { workflowName: string | null; messageCount: number };
export type WorkflowRunListQuery = KeysetPageQuery;

/** The Workflow runs page's URL: `limit` up to 25, `cursor.after` or `cursor.before`. */
export function parseWorkflowRunListQuery(params: URLSearchParams): WorkflowRunListQuery {
  return parseKeysetPageQuery(params, { maxLimit: WORKFLOW_RUNS_PAGE_SIZE });
}

/** Newest first, keyset pages; names and message counts are one index-backed read each for the page. */
export async function listWorkflowRuns(workspaceId: string, page: WorkflowRunListQuery) {
  const db = await getDb();
  const scope = eq(workflowRuns.workspaceId, workspaceId);
  const result = await keysetPage<WorkflowRunRow>(
    { db, table: workflowRuns, createdAt: workflowRuns.createdAt, id: workflowRuns.id, scope, filters: [] },
    page,
  );
  const runIds = result.items.map((run) => run.id);
  const workflowIds = [...new Set(result.items.flatMap((run) => (run.workflowId ? [run.workflowId] : [])))];
  const [names, counts] = await Promise.all([
    workflowIds.length
      ? db
          .select({ id: workflows.id, name: workflows.name })
          .from(workflows)
          .where(and(eq(workflows.workspaceId, workspaceId), inArray(workflows.id, workflowIds)))
      : [],
    runIds.length
      ? db
          .select({ runId: emailMessages.workflowRunId, total: count() })
          .from(emailMessages)
          .where(and(eq(emailMessages.workspaceId, workspaceId), inArray(emailMessages.workflowRunId, runIds)))
          .groupBy(emailMessages.workflowRunId)
      : [],
  ]);
  const nameOf = new Map(names.map((row) => [row.id, row.name]));
  const countOf = new Map(counts.map((row) => [row.runId, Number(row.total)]));
  const items = result.items.map((run): WorkflowRunListItem => ({
    ...run,
    workflowName: run.workflowId ? (nameOf.get(run.workflowId) ?? null) : null,
    messageCount: countOf.get(run.id) ?? 0,
  }));
  return { items, meta: result.meta };
}
