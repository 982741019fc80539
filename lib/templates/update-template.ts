import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templates } from "@/db/schema";
import { AppError, notFound } from "@/lib/errors";
import { zodToAppError } from "@/lib/validation.shared";
import { insertTemplateVersion } from "./insert-template-version";
import { compileTemplateOrThrow } from "./render.shared";
import { templateContentSchema, type TemplateContentInput } from "./schemas";

export interface UpdateTemplateInput {
  workspaceId: string;
  templateId: string;
  content: TemplateContentInput;
  /** The dashboard user saving; null for the CLI and tests. */
  userId: string | null;
  /**
   * The version the editor started from. When someone saved in between, the save is refused with
   * CONFLICT instead of silently overwriting their work.
   */
  baseVersion?: number;
  /** Set by restoreTemplateVersion: the version this save copies. */
  restoredFromVersion?: number;
}

/**
 * Saves a template as its next version: checks the content and its Liquid, bumps `version`, and copies
 * the result into template_versions in the same transaction. The API always renders the current row.
 */
export async function updateTemplate(input: UpdateTemplateInput) {
  const parsed = templateContentSchema.safeParse(input.content);
  if (!parsed.success) throw zodToAppError(parsed.error);
  const content = parsed.data;
  compileTemplateOrThrow({ subject: content.subject, bodyHtml: content.bodyHtml, bodyText: content.bodyText });
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ version: templates.version })
      .from(templates)
      .where(and(eq(templates.workspaceId, input.workspaceId), eq(templates.id, input.templateId)))
      .for("update");
    if (!current) throw notFound("Template", "templateId");
    if (input.baseVersion !== undefined && input.baseVersion !== current.version) {
      throw new AppError(
        "CONFLICT",
        `This template was saved by someone else (version ${current.version}) after you opened version ${input.baseVersion}. Reload to see their changes.`,
        { param: "baseVersion" },
      );
    }
    const [template] = await tx
      .update(templates)
      .set({
        ...content,
        name: content.name.trim(),
        blocks: content.kind === "blocks" ? content.blocks : null,
        version: sql`${templates.version} + 1`,
        updatedByUserId: input.userId,
        updatedAt: new Date(),
      })
      .where(and(eq(templates.workspaceId, input.workspaceId), eq(templates.id, input.templateId)))
      .returning();
    await insertTemplateVersion(tx, template, { userId: input.userId, restoredFromVersion: input.restoredFromVersion });
    return template;
  });
}
