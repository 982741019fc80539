import "server-only";
import type { Executor } from "@/db/client";
import { templateVersions, type templates } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";

type TemplateRow = typeof templates.$inferSelect;

/** Copies a template's current content into its version history (every save is a version). */
export async function insertTemplateVersion(
  db: Executor,
  template: TemplateRow,
  options: { userId: string | null; restoredFromVersion?: number | null },
) {
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
      restoredFromVersion: options.restoredFromVersion ?? null,
      createdByUserId: options.userId,
      createdAt: template.updatedAt,
    })
    .returning();
  return version;
}
