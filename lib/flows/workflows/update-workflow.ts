import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { workflows } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { notFound } from "@/lib/foundation/errors";
import { auditWorkflow } from "./audit-workflow";
import { checkWorkflowDefinition, isUniqueViolation, keyTaken } from "./check-workflow-definition";
import type { WorkflowRow } from "./create-workflow";

export interface UpdateWorkflowInput {
  workspaceId: string;
  workflowId: string;
  /** The whole new definition, or a function of the locked current row giving it (PATCH). */
  definition: unknown | ((current: WorkflowRow) => unknown);
  actor?: AuditActor;
}

/** Same checks as creation; runs already started keep their own copy of the steps. Absent `key` removes it, absent `enabled` keeps it. */
export async function updateWorkflow(input: UpdateWorkflowInput): Promise<WorkflowRow> {
  const write = async (tx: Tx) => {
    const [current] = await tx
      .select()
      .from(workflows)
      .where(and(eq(workflows.workspaceId, input.workspaceId), eq(workflows.id, input.workflowId)))
      .for("update");
    if (!current) throw notFound(`Workflow ${input.workflowId}`, "id");
    const given =
      typeof input.definition === "function"
        ? (input.definition as (row: WorkflowRow) => unknown)(current)
        : input.definition;
    const definition = await checkWorkflowDefinition(tx, {
      workspaceId: input.workspaceId,
      workflowId: input.workflowId,
      definition: given,
    });
    try {
      const [workflow] = await tx
        .update(workflows)
        .set({
          name: definition.name,
          key: definition.key ?? null,
          enabled: definition.enabled ?? current.enabled,
          steps: definition.steps,
          updatedAt: new Date(),
        })
        .where(and(eq(workflows.workspaceId, input.workspaceId), eq(workflows.id, input.workflowId)))
        .returning();
      await auditWorkflow(tx, { action: "workflow.update", actor: input.actor, before: current, after: workflow });
      return workflow;
    } catch (error) {
      if (definition.key !== undefined && isUniqueViolation(error)) throw keyTaken(definition.key, null);
      throw error;
    }
  };
  return (await getDb()).transaction(write);
}
