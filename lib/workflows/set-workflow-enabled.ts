import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { workflows } from "@/db/schema";
import { invalidParameter, notFound } from "@/lib/errors";
import type { WorkflowRow } from "./create-workflow";

/**
 * Turns a workflow on or off. While off, triggering it gives a SKIPPED run with a reason
 * (trigger-workflow-run.ts); runs already started carry on with their own copy of the steps.
 */
export async function setWorkflowEnabled(
  input: { workspaceId: string; workflowId: string; enabled: unknown },
  executor?: Executor,
): Promise<WorkflowRow> {
  if (typeof input.enabled !== "boolean") throw invalidParameter("enabled", "Invalid enabled: must be true or false.");
  const db = executor ?? (await getDb());
  const [workflow] = await db
    .update(workflows)
    .set({ enabled: input.enabled, updatedAt: new Date() })
    .where(and(eq(workflows.workspaceId, input.workspaceId), eq(workflows.id, input.workflowId)))
    .returning();
  if (!workflow) throw notFound(`Workflow ${input.workflowId}`, "id");
  return workflow;
}
