import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { workflows } from "@/db/schema";
import { notFound } from "@/lib/errors";
import type { WorkflowRow } from "./create-workflow";

/**
 * Deletes a workflow; its key is free again afterwards. Its runs are kept: the foreign key sets
 * `workflow_runs.workflow_id` to null (they still show their `workflowKey`), and a run in flight
 * finishes its remaining steps, which it holds as its own copy. Returns the deleted row.
 */
export async function deleteWorkflow(input: { workspaceId: string; workflowId: string }, executor?: Executor): Promise<WorkflowRow> {
  const db = executor ?? (await getDb());
  const [deleted] = await db
    .delete(workflows)
    .where(and(eq(workflows.workspaceId, input.workspaceId), eq(workflows.id, input.workflowId)))
    .returning();
  if (!deleted) throw notFound(`Workflow ${input.workflowId}`, "id");
  return deleted;
}
