import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workflows } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { invalidParameter, notFound } from "@/lib/foundation/errors";
import { auditWorkflow } from "./audit-workflow";
import type { WorkflowRow } from "./create-workflow";

/** While off, a trigger gives a SKIPPED run; started runs carry on. Audited only when the state changes. */
export async function setWorkflowEnabled(input: {
  workspaceId: string;
  workflowId: string;
  enabled: unknown;
  actor?: AuditActor;
}): Promise<WorkflowRow> {
  const enabled = input.enabled;
  if (typeof enabled !== "boolean") throw invalidParameter("enabled", "Invalid enabled: must be true or false.");
  const db = await getDb();
  return db.transaction(async (tx) => {
    const scope = and(eq(workflows.workspaceId, input.workspaceId), eq(workflows.id, input.workflowId));
    const [current] = await tx.select().from(workflows).where(scope).for("update");
    if (!current) throw notFound(`Workflow ${input.workflowId}`, "id");
    if (current.enabled === enabled) return current;
    const [workflow] = await tx.update(workflows).set({ enabled, updatedAt: new Date() }).where(scope).returning();
    await auditWorkflow(tx, {
      action: enabled ? "workflow.enable" : "workflow.disable",
      actor: input.actor,
      before: current,
      after: workflow,
    });
    return workflow;
  });
}
