import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workflows } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";
import type { WorkflowRow } from "./create-workflow";

/** One workflow. Tenant-scoped: an unknown id and another workspace's id give the same 404. */
export async function getWorkflowOrThrow(workspaceId: string, workflowId: string): Promise<WorkflowRow> {
  const db = await getDb();
  const [workflow] = await db
    .select()
    .from(workflows)
    .where(and(eq(workflows.workspaceId, workspaceId), eq(workflows.id, workflowId)));
  if (!workflow) throw notFound(`Workflow ${workflowId}`, "id");
  return workflow;
}
