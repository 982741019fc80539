// Changing a template's default locale (PATCH /v1/templates/:id `defaultLocale`; docs/api.md#template-locales).
import { AppError } from "@/lib/foundation/errors";
import { canonicalLocaleOrThrow, type TemplateLocales } from "./locale-variants.shared";

/**
 * The template's own content is now in `requested` (canonicalised; malformed: 400 naming `defaultLocale`). The old
 * default's message table stays as a variant of its locale. A variant of `requested` with content of its own would
 * have two contents for one locale: CONFLICT naming `defaultLocale` (delete it, or move its content in, first).
 */
export function withDefaultLocale(current: TemplateLocales, requested: unknown): TemplateLocales {
  const defaultLocale = canonicalLocaleOrThrow(requested, "defaultLocale");
  const variant = current.variants.find((candidate) => candidate.locale === defaultLocale);
  const own =
    variant && (["subject", "bodyHtml", "bodyText", "blocks"] as const).filter((field) => variant[field] !== null);
  if (own && own.length > 0) {
    throw new AppError(
      "CONFLICT",
      `The ${defaultLocale} variant has its own ${own.join(", ")}: the default locale's content is the template's. Delete that variant, or move its content into the template, first.`,
      { param: "defaultLocale" },
    );
  }
  return { defaultLocale, variants: current.variants };
}
