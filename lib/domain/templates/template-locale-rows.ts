import "server-only";
import { and, asc, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { Executor, Tx } from "@/db/client";
import { templateLocales, type TemplateLocaleSnapshot } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { getTemplateOrThrowIn } from "./get-template-or-throw";
import { localeChain } from "./locale-tag.shared";
import { resolveTemplateVariant, type ResolvedTemplateVariant } from "./template-variant.shared";

// The rows of template_locales (docs/templates.md#localisation): written only through a template save
// (updateTemplate, createTemplate), so every change to a variant is a version.

const snapshotColumns = {
  locale: templateLocales.locale,
  subject: templateLocales.subject,
  bodyHtml: templateLocales.bodyHtml,
  bodyText: templateLocales.bodyText,
  blocks: templateLocales.blocks,
  messages: templateLocales.messages,
  sampleData: templateLocales.sampleData,
  fallsBackForMissingKeys: templateLocales.fallsBackForMissingKeys,
};

/** Every variant row of a template, by locale: what a version snapshots and the studio lists. */
export async function readTemplateLocales(db: Executor, templateId: string): Promise<TemplateLocaleSnapshot[]> {
  return db
    .select(snapshotColumns)
    .from(templateLocales)
    .where(eq(templateLocales.templateId, templateId))
    .orderBy(asc(templateLocales.locale));
}

/** Makes the template's variant rows exactly `variants` (checked by checkedTemplateLocales): kept rows keep their id. */
export async function replaceTemplateLocalesIn(
  tx: Tx,
  template: { id: string; workspaceId: string },
  variants: TemplateLocaleSnapshot[],
): Promise<void> {
  const keep = variants.map((variant) => variant.locale);
  await tx
    .delete(templateLocales)
    .where(
      keep.length > 0
        ? and(eq(templateLocales.templateId, template.id), notInArray(templateLocales.locale, keep))
        : eq(templateLocales.templateId, template.id),
    );
  if (variants.length === 0) return;
  const now = new Date();
  await tx
    .insert(templateLocales)
    .values(
      variants.map((variant) => ({
        ...variant,
        id: newId("templateLocale"),
        workspaceId: template.workspaceId,
        templateId: template.id,
        updatedAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: [templateLocales.templateId, templateLocales.locale],
      set: {
        subject: sql`excluded.subject`,
        bodyHtml: sql`excluded.body_html`,
        bodyText: sql`excluded.body_text`,
        blocks: sql`excluded.blocks`,
        messages: sql`excluded.messages`,
        sampleData: sql`excluded.sample_data`,
        fallsBackForMissingKeys: sql`excluded.falls_back_for_missing_keys`,
        updatedAt: now,
      },
    });
}

/**
 * A template and the variant it renders for `requestedLocale`: reads only the rows of the fallback chain (at most a
 * handful, however many variants the template has), so render cost does not grow with the number of locales.
 * Tenant-scoped: another workspace's template is NOT_FOUND naming `param`.
 */
export async function loadTemplateVariant(
  db: Executor,
  workspaceId: string,
  templateId: string,
  requestedLocale: string | null | undefined,
  param = "templateId",
) {
  const template = await getTemplateOrThrowIn(db, workspaceId, templateId, param);
  const variants = await db
    .select(snapshotColumns)
    .from(templateLocales)
    .where(
      and(
        eq(templateLocales.templateId, template.id),
        inArray(templateLocales.locale, localeChain(requestedLocale, template.defaultLocale)),
      ),
    );
  const resolved: ResolvedTemplateVariant = resolveTemplateVariant({ ...template, variants }, requestedLocale);
  return { template, variants, resolved };
}
