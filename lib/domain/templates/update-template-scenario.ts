import "server-only";
import { lockTemplateOrThrow } from "./lock-template";
import { and, eq, ne } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templateScenarios } from "@/db/schema";
import { actorOr, type AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { AppError } from "@/lib/foundation/errors";
import { zodToAppError } from "@/lib/foundation/validation.shared";
import { getTemplateScenarioOrThrowIn } from "./get-template-scenario-or-throw";
import type { TemplateScenario } from "./list-template-scenarios";
import { templateScenarioSchema } from "./schemas";

export interface UpdateTemplateScenarioInput {
  workspaceId: string;
  templateId: string;
  scenarioId: string;
  /** Either or both; absent keeps the current value. */
  name?: unknown;
  variables?: unknown;
  actor?: AuditActor;
}

/** By id (the editor's save upserts by name instead); a name taken in the template is a CONFLICT naming `name`. */
export async function updateTemplateScenario(input: UpdateTemplateScenarioInput): Promise<TemplateScenario> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await lockTemplateOrThrow(tx, input.workspaceId, input.templateId);
    const current = await getTemplateScenarioOrThrowIn(tx, input.workspaceId, input.templateId, input.scenarioId);
    const parsed = templateScenarioSchema.safeParse({
      name: input.name ?? current.name,
      variables: input.variables ?? current.variables,
    });
    if (!parsed.success) throw zodToAppError(parsed.error);
    const { name, variables } = parsed.data;
    const [clash] = await tx
      .select({ id: templateScenarios.id })
      .from(templateScenarios)
      .where(
        and(
          eq(templateScenarios.templateId, input.templateId),
          eq(templateScenarios.name, name),
          ne(templateScenarios.id, current.id),
        ),
      );
    if (clash)
      throw new AppError("CONFLICT", `The template already has a scenario named "${name}".`, { param: "name" });
    const [saved] = await tx
      .update(templateScenarios)
      .set({ name, variables, updatedAt: new Date() })
      .where(and(eq(templateScenarios.workspaceId, input.workspaceId), eq(templateScenarios.id, current.id)))
      .returning();
    const variablesChanged = JSON.stringify(current.variables) !== JSON.stringify(variables);
    await recordAudit(tx, {
      workspaceId: input.workspaceId,
      actor: actorOr(input.actor, null),
      action: "template_scenario.update",
      target: { type: "template_scenario", id: saved.id },
      before: { templateId: input.templateId, name: current.name },
      after: { templateId: input.templateId, name, ...(variablesChanged ? { variablesChanged: true } : {}) },
    });
    return saved;
  });
}
