import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { templateScenarios } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";
import type { TemplateScenario } from "./list-template-scenarios";

/** One scenario of one template of the workspace; another workspace's (or template's) is the same NOT_FOUND. */
export async function getTemplateScenarioOrThrow(
  workspaceId: string,
  templateId: string,
  scenarioId: string,
): Promise<TemplateScenario> {
  return getTemplateScenarioOrThrowIn(await getDb(), workspaceId, templateId, scenarioId);
}

/** The same lookup on the caller's database or transaction. */
export async function getTemplateScenarioOrThrowIn(
  db: Executor,
  workspaceId: string,
  templateId: string,
  scenarioId: string,
): Promise<TemplateScenario> {
  const [scenario] = await db
    .select()
    .from(templateScenarios)
    .where(
      and(
        eq(templateScenarios.workspaceId, workspaceId),
        eq(templateScenarios.templateId, templateId),
        eq(templateScenarios.id, scenarioId),
      ),
    );
  if (!scenario) throw notFound(`Scenario ${scenarioId}`, "scenarioId");
  return scenario;
}
