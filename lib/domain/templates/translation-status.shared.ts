// The studio's view of the missing-translation lint (docs/templates.md#the-studio): every locale at once, for the
// translation table (keys × locales, missing cells) and for publishing from the editor, which saves every variant
// together and so checks every one. Pure: the draft preview computes the table's status with it on the server.
import { AppError, type ErrorDetail } from "@/lib/foundation/errors";
import type { TemplateWithVariants } from "./template-variant.shared";
import { missingTranslationKeys, translationKeys } from "./translation-keys.shared";
import { resolveTemplateVariant } from "./template-variant.shared";

export interface LocaleTranslationStatus {
  locale: string;
  /** The keys this locale's effective content uses; null when that content does not parse (its problem is shown elsewhere). */
  usedKeys: string[] | null;
  /** Used keys its table (with its language's) lacks. */
  missingKeys: string[];
  fallsBackForMissingKeys: boolean;
}

/** The default locale first, then the variants in the order given. */
export function translationStatus(template: TemplateWithVariants): LocaleTranslationStatus[] {
  const locales = [
    template.defaultLocale,
    ...template.variants.map((variant) => variant.locale).filter((locale) => locale !== template.defaultLocale),
  ];
  return locales.map((locale) => {
    const variant = template.variants.find((candidate) => candidate.locale === locale);
    const fallsBackForMissingKeys = variant?.fallsBackForMissingKeys ?? false;
    try {
      const usedKeys = translationKeys(resolveTemplateVariant(template, locale).source);
      return { locale, usedKeys, missingKeys: missingTranslationKeys(template, locale), fallsBackForMissingKeys };
    } catch {
      return { locale, usedKeys: null, missingKeys: [], fallsBackForMissingKeys };
    }
  });
}

/**
 * Publishing from the studio saves every locale at once, so each is linted: a locale whose table lacks a key its
 * content uses, and that does not fall back for missing keys, refuses the save (422 TEMPLATE_MISSING_TRANSLATIONS
 * naming `locales["de"].messages` of the first such locale; one detail per locale and key).
 */
export function assertEveryLocaleTranslated(template: TemplateWithVariants): void {
  const short = translationStatus(template).filter(
    (status) => !status.fallsBackForMissingKeys && status.missingKeys.length > 0,
  );
  if (short.length === 0) return;
  const details: ErrorDetail[] = short.flatMap((status) =>
    status.missingKeys.map((key) => ({
      index: 0,
      param: `locales[${JSON.stringify(status.locale)}].messages[${JSON.stringify(key)}]`,
      code: "TEMPLATE_MISSING_TRANSLATIONS",
      message: `The template uses "${key}"; ${status.locale} has no text for it.`,
    })),
  );
  details.forEach((detail, index) => (detail.index = index));
  const listed = short.map((status) => {
    const keys = status.missingKeys.slice(0, 20).map((key) => JSON.stringify(key));
    const more = status.missingKeys.length > keys.length ? ` and ${status.missingKeys.length - keys.length} more` : "";
    return `${status.locale} lacks ${keys.join(", ")}${more}`;
  });
  throw new AppError(
    "TEMPLATE_MISSING_TRANSLATIONS",
    `Not published: ${listed.join("; ")}. Translate ${details.length === 1 ? "it" : "them"} in the table, or mark the locale "falls back for missing keys" to send the default locale's text.`,
    { param: `locales[${JSON.stringify(short[0].locale)}].messages`, details },
  );
}
