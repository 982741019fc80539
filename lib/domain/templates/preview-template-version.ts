import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templateScenarios } from "@/db/schema";
import { getTemplateVersionOrThrow } from "./get-template-version-or-throw";
import { previewDraft } from "./preview-draft";

/** With the template's first scenario; problems are reported, not thrown. */
export async function previewTemplateVersion(workspaceId: string, templateId: string, version: number) {
  const saved = await getTemplateVersionOrThrow(workspaceId, templateId, version);
  const db = await getDb();
  const [scenario] = await db
    .select({ name: templateScenarios.name, variables: templateScenarios.variables })
    .from(templateScenarios)
    .where(and(eq(templateScenarios.workspaceId, workspaceId), eq(templateScenarios.templateId, templateId)))
    .orderBy(asc(templateScenarios.createdAt), asc(templateScenarios.id))
    .limit(1);
  const preview = previewDraft({
    subject: saved.subject,
    bodyHtml: saved.bodyHtml,
    bodyText: saved.bodyText,
    fromAddress: saved.fromAddress,
    replyTo: saved.replyTo,
    strict: saved.strict,
    variables: scenario?.variables ?? {},
  });
  return { version: saved, scenarioName: scenario?.name ?? null, preview };
}
