import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templateScenarios } from "@/db/schema";
import { getTemplateOrThrowIn } from "./get-template-or-throw";

export type TemplateScenario = typeof templateScenarios.$inferSelect;

/** Another workspace's template is NOT_FOUND, never an empty list that would hide the mistake. */
export async function listTemplateScenarios(workspaceId: string, templateId: string): Promise<TemplateScenario[]> {
  const db = await getDb();
  await getTemplateOrThrowIn(db, workspaceId, templateId, "templateId");
  return db
    .select()
    .from(templateScenarios)
    .where(and(eq(templateScenarios.workspaceId, workspaceId), eq(templateScenarios.templateId, templateId)))
    .orderBy(asc(templateScenarios.name));
}
