import "server-only";
import { lockTemplateOrThrow } from "./lock-template";
import { actorOr, type AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { and, count, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templateScenarios } from "@/db/schema";
import { invalidParameter } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";
import { zodToAppError } from "@/lib/foundation/validation.shared";
import type { TemplateScenario } from "./list-template-scenarios";
import { TEMPLATE_SCENARIOS_MAX, templateScenarioSchema } from "./schemas";

export interface SaveTemplateScenarioInput {
  workspaceId: string;
  templateId: string;
  name: unknown;
  variables: unknown;
  actor?: AuditActor;
}

/** Names are unique per template, so the editor's save is one upsert on (template, name). */
export async function saveTemplateScenario(input: SaveTemplateScenarioInput): Promise<TemplateScenario> {
  const parsed = templateScenarioSchema.safeParse({ name: input.name, variables: input.variables });
  if (!parsed.success) throw zodToAppError(parsed.error);
  const { name, variables } = parsed.data;
  const db = await getDb();
  return db.transaction(async (tx) => {
    await lockTemplateOrThrow(tx, input.workspaceId, input.templateId);
    const scope = and(
      eq(templateScenarios.workspaceId, input.workspaceId),
      eq(templateScenarios.templateId, input.templateId),
    );
    const [existing] = await tx
      .select({ id: templateScenarios.id })
      .from(templateScenarios)
      .where(and(scope, eq(templateScenarios.name, name)));
    if (!existing) {
      const [{ value: total }] = await tx.select({ value: count() }).from(templateScenarios).where(scope);
      if (total >= TEMPLATE_SCENARIOS_MAX) {
        throw invalidParameter(
          "name",
          `A template can have at most ${TEMPLATE_SCENARIOS_MAX} scenarios; delete one before adding "${name}".`,
        );
      }
    }
    const [saved] = await tx
      .insert(templateScenarios)
      .values({
        id: newId("templateScenario"),
        workspaceId: input.workspaceId,
        templateId: input.templateId,
        name,
        variables,
      })
      .onConflictDoUpdate({
        target: [templateScenarios.templateId, templateScenarios.name],
        set: { variables, updatedAt: new Date() },
      })
      .returning();
    await recordAudit(tx, {
      workspaceId: input.workspaceId,
      actor: actorOr(input.actor, null),
      action: existing ? "template_scenario.update" : "template_scenario.create",
      target: { type: "template_scenario", id: saved.id },
      // The sample data itself is not copied into the log: it may be large, and the scenario holds it.
      after: { templateId: input.templateId, name, ...(existing ? { variablesChanged: true } : {}) },
    });
    return saved;
  });
}
