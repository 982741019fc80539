import "server-only";
import { and, asc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { templateLocales, templates, type TemplateLocaleSnapshot } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";

// The send path's reads of a template (docs/templates.md#where-the-locale-comes-from): the row and the tags of its
// variant rows in ONE query, so a template without variants costs a send what it did before localisation; the rows
// of the fallback chain are read only when there are variants, once per chain in a batch (the caller memoises).

/** Tenant-scoped like getTemplateOrThrowIn; `locales` lists the locales with a template_locales row. */
export async function getSendTemplateIn(db: Executor, workspaceId: string, templateId: string, param?: string) {
  const [template] = await db
    .select({
      ...getTableColumns(templates),
      // Qualified by hand: inside sql``, a column renders unqualified, and "id" would be the subquery's own.
      locales: sql<
        string[] | null
      >`(select array_agg(l.locale) from "template_locales" l where l.template_id = "templates"."id")`,
    })
    .from(templates)
    .where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, templateId)));
  if (!template) throw notFound(`Template ${templateId}`, param);
  return { ...template, locales: template.locales ?? [] };
}

export type SendTemplate = Awaited<ReturnType<typeof getSendTemplateIn>>;

type VariantRow = Pick<
  TemplateLocaleSnapshot,
  "locale" | "subject" | "bodyHtml" | "bodyText" | "messages" | "fallsBackForMissingKeys"
>;

/** The variant rows of `locales` (a fallback chain: a handful at most, however many variants the template has). */
export async function readChainVariants(db: Executor, templateId: string, locales: string[]): Promise<VariantRow[]> {
  return db
    .select({
      locale: templateLocales.locale,
      subject: templateLocales.subject,
      bodyHtml: templateLocales.bodyHtml,
      bodyText: templateLocales.bodyText,
      messages: templateLocales.messages,
      fallsBackForMissingKeys: templateLocales.fallsBackForMissingKeys,
    })
    .from(templateLocales)
    .where(and(eq(templateLocales.templateId, templateId), inArray(templateLocales.locale, locales)))
    .orderBy(asc(templateLocales.locale));
}
