import "server-only";
import { actorOr, type AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { and, eq, sql } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { templates } from "@/db/schema";
import { AppError, notFound } from "@/lib/foundation/errors";
import { zodToAppError } from "@/lib/foundation/validation.shared";
import { insertTemplateVersion } from "./insert-template-version";
import {
  checkedTemplateLocales,
  type TemplateLocales,
  type TemplateLocaleVariantInput,
} from "./locale-variants.shared";
import { compileTemplateOrThrow } from "./render.shared";
import { templateContentSchema, type TemplateContent, type TemplateContentInput } from "./schemas";
import { readTemplateLocales, replaceTemplateLocalesIn } from "./template-locale-rows";

/** A template's whole localisation as a save writes it (every variant row; the ones not named are removed). */
export interface TemplateLocalesInput {
  defaultLocale: string;
  variants: TemplateLocaleVariantInput[];
}

export interface UpdateTemplateInput {
  workspaceId: string;
  templateId: string;
  /** The whole content, or a function of the locked current row giving it (PATCH: nothing saved meanwhile is lost). */
  content: TemplateContentInput | ((current: TemplateRow) => TemplateContentInput);
  userId: string | null;
  /** Someone else's save since this version is a CONFLICT, not silently overwritten. */
  baseVersion?: number;
  /** The field a CONFLICT names: the dashboard's `baseVersion` (default), the API's `version`. */
  baseVersionParam?: string;
  restoredFromVersion?: number;
  actor?: AuditActor;
  /** Omitted: the variants stay as they are. A function gets the current ones (and the row), read under the row lock. */
  locales?: TemplateLocalesInput | ((current: TemplateLocales, template: TemplateRow) => TemplateLocalesInput);
  /** The audit action (default template.update / template.restore) and fields added to its `after`. */
  audit?: { action: string; after?: Record<string, unknown> };
}

/** Bumps `version` and copies the result into template_versions in the same transaction. */
export async function updateTemplate(input: UpdateTemplateInput) {
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
      throw new AppError("CONFLICT", staleVersionMessage(input.baseVersion, current.version), {
        param: input.baseVersionParam ?? "baseVersion",
      });
    }
    const content = checkedContent(typeof input.content === "function" ? input.content(current) : input.content);
    const { locales, localesChanged } = await localesToSave(tx, current, input.locales);
    const [template] = await tx
      .update(templates)
      .set({
        ...content,
        name: content.name.trim(),
        blocks: content.kind === "blocks" ? content.blocks : null,
        ...(locales ? { defaultLocale: locales.defaultLocale } : {}),
        version: sql`${templates.version} + 1`,
        updatedByUserId: input.userId,
        updatedAt: new Date(),
      })
      .where(and(eq(templates.workspaceId, input.workspaceId), eq(templates.id, input.templateId)))
      .returning();
    if (locales) await replaceTemplateLocalesIn(tx, template, locales.variants);
    await insertTemplateVersion(tx, template, { userId: input.userId, restoredFromVersion: input.restoredFromVersion });
    await recordAudit(tx, {
      workspaceId: input.workspaceId,
      actor: actorOr(input.actor, input.userId),
      action: input.audit?.action ?? (input.restoredFromVersion ? "template.restore" : "template.update"),
      target: { type: "template", id: template.id },
      ...auditedChanges(templateChanges(current, template, localesChanged), input.audit?.after),
    });
    return template;
  });
}

type TemplateRow = typeof templates.$inferSelect;

/** The localisation a save writes, checked (each variant's Liquid too), or null when the save leaves it alone. */
async function localesToSave(tx: Tx, current: TemplateRow, input: UpdateTemplateInput["locales"]) {
  if (input === undefined) return { locales: null, localesChanged: false };
  const before = await readTemplateLocales(tx, current.id);
  const locales = checkedTemplateLocales(
    typeof input === "function" ? input({ defaultLocale: current.defaultLocale, variants: before }, current) : input,
  );
  for (const variant of locales.variants) {
    const { subject, bodyHtml, bodyText } = variant;
    compileTemplateOrThrow({ subject: subject ?? "", bodyHtml: bodyHtml ?? "", bodyText });
  }
  const byLocale = (rows: typeof before) =>
    stableJson([...rows].sort((a, b) => (a.locale < b.locale ? -1 : a.locale > b.locale ? 1 : 0)));
  return { locales, localesChanged: byLocale(before) !== byLocale(locales.variants) };
}

function auditedChanges(changes: ReturnType<typeof templateChanges>, after: Record<string, unknown> | undefined) {
  return after ? { before: changes.before, after: { ...changes.after, ...after } } : changes;
}

/** JSON with object keys sorted: jsonb returns keys in its own order. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/** A version behind the stored one was replaced by later saves; one ahead of it (a typo, another template's) never existed. */
function staleVersionMessage(opened: number, latest: number): string {
  return opened < latest
    ? `This template was saved by someone else after you opened version ${opened}: it is at version ${latest} now. Reload to see their changes.`
    : `Version ${opened} of this template does not exist yet: the latest is version ${latest}. Reload to base your change on it.`;
}

/** The content as saved: the schema's checks (naming the field), then the Liquid's (line and column). */
function checkedContent(input: TemplateContentInput): TemplateContent {
  const parsed = templateContentSchema.safeParse(input);
  if (!parsed.success) throw zodToAppError(parsed.error);
  const content = parsed.data;
  compileTemplateOrThrow({ subject: content.subject, bodyHtml: content.bodyHtml, bodyText: content.bodyText });
  return content;
}

const SHORT_FIELDS = ["name", "subject", "fromAddress", "replyTo", "strict", "kind", "defaultLocale"] as const;
const LONG_FIELDS = ["bodyHtml", "bodyText", "blocks"] as const;

/** Long fields (bodies, blocks) only named in `changed`: the versions keep the text, the log stays small. */
function templateChanges(
  before: typeof templates.$inferSelect,
  after: typeof templates.$inferSelect,
  localesWritten: boolean,
) {
  const changedLong: string[] = LONG_FIELDS.filter(
    (field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]),
  );
  if (localesWritten) changedLong.push("locales");
  const pick = (row: typeof templates.$inferSelect) =>
    Object.fromEntries(SHORT_FIELDS.map((field) => [field, row[field]]));
  return {
    before: { ...pick(before), version: before.version },
    after: { ...pick(after), version: after.version, ...(changedLong.length ? { changed: changedLong } : {}) },
  };
}
