import "server-only";
import { getDb, type Tx } from "@/db/client";
import { workflows } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { newId } from "@/lib/foundation/ids";
import { auditWorkflow } from "./audit-workflow";
import { checkWorkflowDefinition, isUniqueViolation, keyTaken } from "./check-workflow-definition";

export type WorkflowRow = typeof workflows.$inferSelect;

/**
 * Stores a workflow (docs/api.md#decided-workflows) after every check of check-workflow-definition.ts:
 * shape, templates and groups in this workspace, key free. Templates and groups can still vanish
 * later: the step then fails when it runs (prepare-email-step.ts). Audited as `workflow.create` in
 * the same transaction (`actor` absent: the system, as the CLI and tests).
 */
export async function createWorkflow(input: { workspaceId: string; definition: unknown; actor?: AuditActor }, executor?: Tx): Promise<WorkflowRow> {
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
  if (executor) return write(executor);
  return (await getDb()).transaction(write);
}
