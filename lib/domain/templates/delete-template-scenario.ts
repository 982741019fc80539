import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templateScenarios } from "@/db/schema";
import { actorOr, type AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { notFound } from "@/lib/foundation/errors";

/** Deletes one scenario of a template of the workspace; anything else (another workspace's) is NOT_FOUND. */
export async function deleteTemplateScenario(input: {
  workspaceId: string;
  templateId: string;
  scenarioId: string;
  actor?: AuditActor;
}): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(templateScenarios)
      .where(
        and(
          eq(templateScenarios.workspaceId, input.workspaceId),
          eq(templateScenarios.templateId, input.templateId),
          eq(templateScenarios.id, input.scenarioId),
        ),
      )
      .returning({ id: templateScenarios.id, name: templateScenarios.name });
    if (!deleted) throw notFound(`Scenario ${input.scenarioId}`, "scenarioId");
    await recordAudit(tx, {
      workspaceId: input.workspaceId,
      actor: actorOr(input.actor, null),
      action: "template_scenario.delete",
      target: { type: "template_scenario", id: deleted.id },
      before: { templateId: input.templateId, name: deleted.name },
    });
  });
}
