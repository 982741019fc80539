import "server-only";
import type { Tx } from "@/db/client";
import { actorOr, type AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import type { WorkflowRow } from "./create-workflow";

/** A workflow as the audit log keeps it: short fields as values, the steps by count (the row holds them). */
const summary = (workflow: WorkflowRow) => ({
  name: workflow.name,
  key: workflow.key,
  enabled: workflow.enabled,
  stepCount: workflow.steps.length,
});

/** In the change's transaction (docs/audit.md#actions); an update names `steps` in `after.changed` when they changed. */
export async function auditWorkflow(
  tx: Tx,
  change: {
    action: "workflow.create" | "workflow.update" | "workflow.enable" | "workflow.disable" | "workflow.delete";
    actor?: AuditActor;
    before?: WorkflowRow;
    after?: WorkflowRow;
  },
): Promise<void> {
  const workflow = (change.after ?? change.before)!;
  const stepsChanged =
    change.before && change.after && JSON.stringify(change.before.steps) !== JSON.stringify(change.after.steps);
  await recordAudit(tx, {
    workspaceId: workflow.workspaceId,
    actor: actorOr(change.actor, null),
    action: change.action,
    target: { type: "workflow", id: workflow.id },
    before: change.before ? summary(change.before) : null,
    after: change.after ? { ...summary(change.after), ...(stepsChanged ? { changed: ["steps"] } : {}) } : null,
  });
}
