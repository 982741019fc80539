import "server-only";
import { getDb, type Tx } from "@/db/client";
import { workflows } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { newId } from "@/lib/foundation/ids";
import { auditWorkflow } from "./audit-workflow";
import { checkWorkflowDefinition, isUniqueViolation, keyTaken } from "./check-workflow-definition";

export type WorkflowRow = typeof workflows.$inferSelect;

/**
 * After every check of check-workflow-definition.ts; a template or group deleted later fails the step when it runs.
 * Audited as `workflow.create` in the same transaction.
 */
export async function createWorkflow(input: {
  workspaceId: string;
  definition: unknown;
  actor?: AuditActor;
}): Promise<WorkflowRow> {
  const write = async (tx: Tx) => {
    const definition = await checkWorkflowDefinition(tx, input);
    try {
      const [workflow] = await tx
        .insert(workflows)
        .values({
          id: newId("workflow"),
          workspaceId: input.workspaceId,
          name: definition.name,
          key: definition.key ?? null,
          enabled: definition.enabled ?? true,
          steps: definition.steps,
        })
        .returning();
      await auditWorkflow(tx, { action: "workflow.create", actor: input.actor, after: workflow });
      return workflow;
    } catch (error) {
      if (definition.key !== undefined && isUniqueViolation(error)) throw keyTaken(definition.key, null);
      throw error;
    }
  };
  return (await getDb()).transaction(write);
}
