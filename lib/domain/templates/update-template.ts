import "server-only";
import { actorOr, type AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templates } from "@/db/schema";
import { AppError, notFound } from "@/lib/foundation/errors";
import { zodToAppError } from "@/lib/foundation/validation.shared";
import { insertTemplateVersion } from "./insert-template-version";
import { compileTemplateOrThrow } from "./render.shared";
import { templateContentSchema, type TemplateContent, type TemplateContentInput } from "./schemas";

export interface UpdateTemplateInput {
  workspaceId: string;
  templateId: string;
  /**
   * The whole new content (the editor's save), or a function of the locked current row giving it
   * (the API's PATCH: the fields sent over the current ones, so nothing saved meanwhile is lost).
   */
  content: TemplateContentInput | ((current: TemplateRow) => TemplateContentInput);
  /** The dashboard user saving; null for the CLI and tests. */
  userId: string | null;
  /**
   * The version the editor started from. When someone saved in between, the save is refused with
   * CONFLICT instead of silently overwriting their work.
   */
  baseVersion?: number;
  /** The field a CONFLICT names: the dashboard's `baseVersion` (default), the API's `version`. */
  baseVersionParam?: string;
  /** Set by restoreTemplateVersion: the version this save copies. */
  restoredFromVersion?: number;
  /** Audited as (`template.update`); absent: the user of `userId`, else the system. */
  actor?: AuditActor;
}

/**
 * Saves a template as its next version: checks the content and its Liquid, bumps `version`, and copies
 * the result into template_versions in the same transaction. The API always renders the current row.
 */
export async function updateTemplate(input: UpdateTemplateInput) {
  // Whole content is checked before the transaction; a patch once merged over the locked row.
  if (typeof input.content !== "function") checkedContent(input.content);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(templates)
      .where(and(eq(templates.workspaceId, input.workspaceId), eq(templates.id, input.templateId)))
      .for("update");
    if (!current) throw notFound("Template", "templateId");
    if (input.baseVersion !== undefined && input.baseVersion !== current.version) {
      throw new AppError(
        "CONFLICT",
        `This template was saved by someone else (version ${current.version}) after you opened version ${input.baseVersion}. Reload to see their changes.`,
        { param: input.baseVersionParam ?? "baseVersion" },
      );
    }
    const content = checkedContent(typeof input.content === "function" ? input.content(current) : input.content);
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
    await recordAudit(tx, {
      workspaceId: input.workspaceId,
      actor: actorOr(input.actor, input.userId),
      action: input.restoredFromVersion ? "template.restore" : "template.update",
      target: { type: "template", id: template.id },
      ...templateChanges(current, template),
    });
    return template;
  });
}

type TemplateRow = typeof templates.$inferSelect;

/** The content as saved: the schema's checks (naming the field), then the Liquid's (line and column). */
function checkedContent(input: TemplateContentInput): TemplateContent {
  const parsed = templateContentSchema.safeParse(input);
  if (!parsed.success) throw zodToAppError(parsed.error);
  const content = parsed.data;
  compileTemplateOrThrow({ subject: content.subject, bodyHtml: content.bodyHtml, bodyText: content.bodyText });
  return content;
}

const SHORT_FIELDS = ["name", "subject", "fromAddress", "replyTo", "strict", "kind"] as const;
const LONG_FIELDS = ["bodyHtml", "bodyText", "blocks"] as const;

/**
 * The audit's before/after of a save: short fields as values, long ones (bodies, blocks) only named in
 * `changed` (the versions keep the text itself; the log stays small), and the version numbers.
 */
function templateChanges(before: typeof templates.$inferSelect, after: typeof templates.$inferSelect) {
  const changedLong = LONG_FIELDS.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
  const pick = (row: typeof templates.$inferSelect) => Object.fromEntries(SHORT_FIELDS.map((field) => [field, row[field]]));
  return {
    before: { ...pick(before), version: before.version },
    after: { ...pick(after), version: after.version, ...(changedLong.length ? { changed: changedLong } : {}) },
  };
}
