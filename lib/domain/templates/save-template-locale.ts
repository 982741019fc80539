import "server-only";
import type { templates } from "@/db/schema";
import { AppError, invalidParameter, notFound } from "@/lib/foundation/errors";
import type { AuditActor } from "@/lib/records/audit/actor";
import {
  canonicalLocaleOrThrow,
  checkedTemplateLocales,
  withVariant,
  type TemplateLocaleSnapshot,
  type TemplateLocaleVariantInput,
} from "./locale-variants.shared";
import { assertTranslationsPresent } from "./translation-keys.shared";
import { updateTemplate, type TemplateLocalesInput } from "./update-template";

// One variant written or removed: a template save like any other (version N+1 holding every variant, audited as
// template.locale_put, template.locale_delete or template.messages_import with the locale), so a restore brings the
// variants back together.

interface LocaleSaveInput {
  workspaceId: string;
  templateId: string;
  userId: string | null;
  /** Someone else's save since this version is a CONFLICT naming baseVersionParam. */
  baseVersion?: number;
  baseVersionParam?: string;
  actor?: AuditActor;
}

/** The template's own content unchanged. */
const unchanged = (current: typeof templates.$inferSelect) => ({
  name: current.name,
  subject: current.subject,
  bodyHtml: current.bodyHtml,
  bodyText: current.bodyText,
  fromAddress: current.fromAddress,
  replyTo: current.replyTo,
  strict: current.strict,
  kind: current.kind,
  blocks: current.blocks,
});

/**
 * Adds the variant or replaces the one of its locale (canonicalised: `fr_ca` is `fr-CA`). Refused with
 * TEMPLATE_MISSING_TRANSLATIONS when its table lacks a key its content uses, unless it falls back for missing keys.
 */
export async function putTemplateLocale(input: LocaleSaveInput & { variant: TemplateLocaleVariantInput }) {
  const locale = canonicalLocaleOrThrow(input.variant.locale);
  return updateTemplate({
    ...input,
    content: unchanged,
    locales: (current, template) => {
      if (locale === current.defaultLocale) assertOnlyMessages(input.variant, locale);
      return linted(
        template,
        { ...current, variants: withVariant(current.variants, { ...input.variant, locale }) },
        locale,
      );
    },
    audit: { action: "template.locale_put", after: { locale } },
  });
}

/** Replaces a locale's message table (the variant is created, holding only the table, when there is none). */
export async function importTemplateMessages(
  input: LocaleSaveInput & { locale: string; messages: Record<string, string> },
) {
  const locale = canonicalLocaleOrThrow(input.locale);
  return updateTemplate({
    ...input,
    content: unchanged,
    locales: (current, template) => {
      const existing = current.variants.find((variant) => variant.locale === locale) ?? emptyVariant(locale);
      const variants = withVariant(current.variants, { ...existing, messages: input.messages });
      return linted(template, { ...current, variants }, locale);
    },
    audit: { action: "template.messages_import", after: { locale, messageCount: Object.keys(input.messages).length } },
  });
}

/** Removes a variant (NOT_FOUND naming `locale` when the template has none of that locale; the default's: CONFLICT). */
export async function removeTemplateLocale(input: LocaleSaveInput & { locale: string }) {
  const locale = canonicalLocaleOrThrow(input.locale);
  return updateTemplate({
    ...input,
    content: unchanged,
    locales: (current) => {
      if (locale === current.defaultLocale) {
        throw new AppError(
          "CONFLICT",
          `${locale} is the template's default locale: its content is the template's own. Make another locale the default first (PATCH defaultLocale), or put an empty message table.`,
          { param: "locale" },
        );
      }
      if (!current.variants.some((variant) => variant.locale === locale)) throw notFound(`Locale ${locale}`, "locale");
      return { ...current, variants: current.variants.filter((variant) => variant.locale !== locale) };
    },
    audit: { action: "template.locale_delete", after: { locale } },
  });
}

/** The default locale's content is the template's own: its row holds only messages, sample data and the flag. */
function assertOnlyMessages(variant: TemplateLocaleVariantInput, locale: string) {
  const field = (["subject", "bodyHtml", "bodyText", "blocks"] as const).find((name) => variant[name] != null);
  if (field) {
    throw invalidParameter(
      field,
      `${locale} is the template's default locale: its ${field} is the template's own (PATCH /v1/templates/:id). Its locale holds only messages, sampleData and fallsBackForMissingKeys.`,
    );
  }
}

/** The row of a locale without one: a new variant holding only a table, the default before it has one. */
export const emptyVariant = (locale: string): TemplateLocaleSnapshot => ({
  locale,
  subject: null,
  bodyHtml: null,
  bodyText: null,
  blocks: null,
  messages: {},
  sampleData: null,
  fallsBackForMissingKeys: false,
});

/** The locales to save, once the saved variant passes the missing-translation lint against the current content. */
function linted(template: typeof templates.$inferSelect, locales: TemplateLocalesInput, locale: string) {
  const checked = checkedTemplateLocales(locales);
  assertTranslationsPresent({ ...template, ...checked }, locale);
  return checked;
}
