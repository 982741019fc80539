import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workflows } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { notFound } from "@/lib/foundation/errors";
import { auditWorkflow } from "./audit-workflow";
import type { WorkflowRow } from "./create-workflow";

/**
 * Deletes a workflow; its key is free again afterwards. Its runs are kept: the foreign key sets
 * `workflow_runs.workflow_id` to null (they still show their `workflowKey`), and a run in flight
 * finishes its remaining steps, which it holds as its own copy. Returns the deleted row. Audited as
 * `workflow.delete` in the same transaction.
 */
export async function deleteWorkflow(input: { workspaceId: string; workflowId: string; actor?: AuditActor }): Promise<WorkflowRow> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(workflows)
      .where(and(eq(workflows.workspaceId, input.workspaceId), eq(workflows.id, input.workflowId)))
      .returning();
    if (!deleted) throw notFound(`Workflow ${input.workflowId}`, "id");
    await auditWorkflow(tx, { action: "workflow.delete", actor: input.actor, before: deleted });
    return deleted;
  });
}
