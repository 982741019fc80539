import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templateScenarios } from "@/db/schema";
import { notFound } from "@/lib/errors";

/** Deletes one scenario of a template of the workspace; anything else (another workspace's) is NOT_FOUND. */
export async function deleteTemplateScenario(input: { workspaceId: string; templateId: string; scenarioId: string }): Promise<void> {
  const db = await getDb();
  const deleted = await db
    .delete(templateScenarios)
    .where(
      and(
        eq(templateScenarios.workspaceId, input.workspaceId),
        eq(templateScenarios.templateId, input.templateId),
        eq(templateScenarios.id, input.scenarioId),
      ),
    )
    .returning({ id: templateScenarios.id });
  if (deleted.length === 0) throw notFound(`Scenario ${input.scenarioId}`, "scenarioId");
}
