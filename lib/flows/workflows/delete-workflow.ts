import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workflows } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { notFound } from "@/lib/foundation/errors";
import { auditWorkflow } from "./audit-workflow";
import type { WorkflowRow } from "./create-workflow";

/** Frees the key; its runs stay (workflow_id set null) and one in flight finishes from its own copy of the steps. */
export async function deleteWorkflow(input: {
  workspaceId: string;
  workflowId: string;
  actor?: AuditActor;
}): Promise<WorkflowRow> {
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
