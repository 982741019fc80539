import "server-only";
import { lockTemplateOrThrow } from "./lock-template";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templates } from "@/db/schema";
import { AppError } from "@/lib/foundation/errors";
import { findWorkflowsUsingTemplate } from "./find-workflows-using-template";

/**
 * Sent messages keep their content. CONFLICT naming the workflows that use it (their steps would fail); the row is
 * locked first, so the check and the delete see the same workflows.
 */
export async function deleteTemplate(input: { workspaceId: string; templateId: string; actor: AuditActor }) {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const template = await lockTemplateOrThrow(tx, input.workspaceId, input.templateId);
    const users = await findWorkflowsUsingTemplate(tx, input.workspaceId, template.id);
    if (users.length > 0) {
      const names = users.map((workflow) => `“${workflow.name}”`).join(", ");
      const noun = users.length === 1 ? "workflow" : "workflows";
      throw new AppError(
        "CONFLICT",
        `“${template.name}” is used by the ${noun} ${names}. Remove it from their steps first, then delete it.`,
        { param: "templateId" },
      );
    }
    await tx.delete(templates).where(and(eq(templates.workspaceId, input.workspaceId), eq(templates.id, template.id)));
    const target = { type: "template", id: template.id };
    await recordAudit(tx, {
      workspaceId: input.workspaceId,
      actor: input.actor,
      action: "template.delete",
      target,
      before: { name: template.name },
    });
    return template;
  });
}
