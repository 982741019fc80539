import "server-only";
import { getDb } from "@/db/client";
import { notFound } from "@/lib/foundation/errors";
import { getTemplateOrThrowIn } from "./get-template-or-throw";
import { canonicalLocaleOrThrow } from "./locale-variants.shared";
import { emptyVariant } from "./save-template-locale";
import { readTemplateLocales } from "./template-locale-rows";
import { missingTranslationKeys } from "./translation-keys.shared";

// The management API's reads of a template's locales (docs/api.md#template-locales): each with the keys its content
// uses that its table lacks, so a variant a later change left short (a new key in the default content, a removed
// language variant it inherited from) is visible, though only the variant being saved is refused.

async function templateWithLocales(workspaceId: string, templateId: string) {
  const db = await getDb();
  const template = await getTemplateOrThrowIn(db, workspaceId, templateId, "id");
  const variants = await readTemplateLocales(db, template.id);
  return { template, variants };
}

/** The default locale first (listed even without a message table), then every variant by tag. */
export async function listTemplateLocales(workspaceId: string, templateId: string) {
  const { template, variants } = await templateWithLocales(workspaceId, templateId);
  const withVariants = { ...template, variants };
  const byDefaultFirst = [
    variants.find((variant) => variant.locale === template.defaultLocale) ?? emptyVariant(template.defaultLocale),
    ...variants.filter((variant) => variant.locale !== template.defaultLocale),
  ];
  const locales = byDefaultFirst.map((variant) => ({
    variant,
    missingKeys: missingTranslationKeys(withVariants, variant.locale),
  }));
  return { template, locales };
}

/** One locale (the path's tag canonicalised; malformed: 400 naming `locale`); NOT_FOUND naming `locale` when none. */
export async function getTemplateLocaleOrThrow(workspaceId: string, templateId: string, rawLocale: string) {
  const locale = canonicalLocaleOrThrow(rawLocale);
  const { template, variants } = await templateWithLocales(workspaceId, templateId);
  const variant =
    variants.find((candidate) => candidate.locale === locale) ??
    (locale === template.defaultLocale ? emptyVariant(locale) : null);
  if (!variant) throw notFound(`Locale ${locale} of template ${template.id}`, "locale");
  return { template, variant, missingKeys: missingTranslationKeys({ ...template, variants }, locale) };
}
