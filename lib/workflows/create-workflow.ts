import "server-only";
import { getDb, type Executor } from "@/db/client";
import { workflows } from "@/db/schema";
import { newId } from "@/lib/ids";
import { checkWorkflowDefinition, isUniqueViolation, keyTaken } from "./check-workflow-definition";

export type WorkflowRow = typeof workflows.$inferSelect;

/**
 * Stores a workflow (docs/api.md#decided-workflows) after every check of check-workflow-definition.ts:
 * shape, templates and groups in this workspace, key free. Templates and groups can still vanish
 * later: the step then fails when it runs (prepare-email-step.ts).
 */
export async function createWorkflow(input: { workspaceId: string; definition: unknown }, executor?: Executor): Promise<WorkflowRow> {
  const db = executor ?? (await getDb());
  const definition = await checkWorkflowDefinition(db, input);
  try {
    const [workflow] = await db
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
    return workflow;
  } catch (error) {
    if (definition.key !== undefined && isUniqueViolation(error)) throw keyTaken(definition.key, null);
    throw error;
  }
}
