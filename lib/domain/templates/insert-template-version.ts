import "server-only";
import type { Executor } from "@/db/client";
import { templateVersions, type templates } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { readTemplateLocales } from "./template-locale-rows";

type TemplateRow = typeof templates.$inferSelect;

/** Copies a template's current content, its variant rows included, into its version history (every save is a version). */
export async function insertTemplateVersion(
  db: Executor,
  template: TemplateRow,
  options: { userId: string | null; restoredFromVersion?: number | null },
) {
  const locales = await readTemplateLocales(db, template.id);
  const [version] = await db
    .insert(templateVersions)
    .values({
      id: newId("templateVersion"),
      workspaceId: template.workspaceId,
      templateId: template.id,
      version: template.version,
      name: template.name,
      subject: template.subject,
      bodyHtml: template.bodyHtml,
      bodyText: template.bodyText,
      fromAddress: template.fromAddress,
      replyTo: template.replyTo,
      strict: template.strict,
      kind: template.kind,
      blocks: template.blocks,
      defaultLocale: template.defaultLocale,
      locales,
      restoredFromVersion: options.restoredFromVersion ?? null,
      createdByUserId: options.userId,
      createdAt: template.updatedAt,
    })
    .returning();
  return version;
}
