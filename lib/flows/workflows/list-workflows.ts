import "server-only";
import { asc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workflows } from "@/db/schema";
import { keysetPage } from "@/db/keyset";
import { parseKeysetPageQuery, type KeysetPageQuery } from "@/lib/foundation/pagination";
import type { WorkflowRow } from "./create-workflow";

/** A workspace's workflows, oldest first (the operator CLI; later the dashboard list). */
export async function listWorkflows(workspaceId: string): Promise<WorkflowRow[]> {
  const db = await getDb();
  return db
    .select()
    .from(workflows)
    .where(eq(workflows.workspaceId, workspaceId))
    .orderBy(asc(workflows.createdAt), asc(workflows.id));
}

export const WORKFLOWS_PAGE_SIZE = 100;

/** GET /v1/workflows' query string: `limit` up to 100, `cursor.after` or `cursor.before`. */
export function parseWorkflowListQuery(params: URLSearchParams): KeysetPageQuery {
  return parseKeysetPageQuery(params, { maxLimit: WORKFLOWS_PAGE_SIZE });
}

/** GET /v1/workflows: the workspace's workflows, newest first, keyset cursors like templates. */
export async function listWorkflowPage(workspaceId: string, page: KeysetPageQuery) {
  const w = workflows;
  const query = {
    db: await getDb(),
    table: w,
    createdAt: w.createdAt,
    id: w.id,
    scope: eq(w.workspaceId, workspaceId),
    filters: [],
  };
  return keysetPage<WorkflowRow>(query, page);
}
