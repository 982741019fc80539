import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { workflows } from "@/db/schema";
import { notFound } from "@/lib/errors";
import { checkWorkflowDefinition, isUniqueViolation, keyTaken } from "./check-workflow-definition";
import type { WorkflowRow } from "./create-workflow";
import { getWorkflowOrThrow } from "./get-workflow-or-throw";

/**
 * Replaces a workflow's definition (the dashboard builder saves the whole of it), with the same
 * checks as creation. An absent `key` removes the key; an absent `enabled` keeps the current state.
 * Runs already started are untouched: each run holds its own copy of the steps (see
 * docs/api.md#decided-workflows), so an edit applies to runs triggered after it.
 */
export async function updateWorkflow(
  input: { workspaceId: string; workflowId: string; definition: unknown },
  executor?: Executor,
): Promise<WorkflowRow> {
  const db = executor ?? (await getDb());
  const current = await getWorkflowOrThrow(input.workspaceId, input.workflowId, db);
  const definition = await checkWorkflowDefinition(db, input);
  try {
    const [workflow] = await db
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
    // Deleted between the read and the write.
    if (!workflow) throw notFound(`Workflow ${input.workflowId}`, "id");
    return workflow;
  } catch (error) {
    if (definition.key !== undefined && isUniqueViolation(error)) throw keyTaken(definition.key, null);
    throw error;
  }
}
