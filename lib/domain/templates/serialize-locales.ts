import type { templates, TemplateLocaleSnapshot } from "@/db/schema";

// The public shapes of a template's locales (docs/api.md#template-locales).

type TemplateRow = typeof templates.$inferSelect;
const CONTENT_FIELDS = ["subject", "bodyHtml", "bodyText", "blocks"] as const;

/** Without content: what the list shows of each locale. */
export function serializeTemplateLocaleSummary(
  template: TemplateRow,
  variant: TemplateLocaleSnapshot,
  missing: string[],
) {
  return {
    type: "TemplateLocale" as const,
    templateId: template.id,
    locale: variant.locale,
    isDefault: variant.locale === template.defaultLocale,
    /** The content fields this locale sets itself; the others come from the next locale of its chain. */
    overrides: CONTENT_FIELDS.filter((field) => variant[field] !== null),
    messageCount: Object.keys(variant.messages).length,
    fallsBackForMissingKeys: variant.fallsBackForMissingKeys,
    missingKeys: missing,
  };
}

/** With its content, message table and sample data. */
export function serializeTemplateLocale(template: TemplateRow, variant: TemplateLocaleSnapshot, missing: string[]) {
  return {
    ...serializeTemplateLocaleSummary(template, variant, missing),
    templateVersion: template.version,
    subject: variant.subject,
    bodyHtml: variant.bodyHtml,
    bodyText: variant.bodyText,
    blocks: variant.blocks,
    messages: variant.messages,
    sampleData: variant.sampleData,
  };
}
