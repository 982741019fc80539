// A template's locale variants as its use cases take them (docs/templates.md#localisation). Pure, so the studio's
// forms can share the checks; the Liquid of a variant is checked by the use case (compileTemplateOrThrow).
import { z } from "zod";
import type { TemplateLocaleSnapshot } from "@/db/schema/templates";
import { invalidParameter } from "@/lib/foundation/errors";
import { isPlainObject, zodToAppError } from "@/lib/foundation/validation.shared";
import { messageProblem } from "./icu-message.shared";
import { canonicalLocale } from "./locale-tag.shared";
import { TEMPLATE_BODY_MAX } from "./schemas";

export type { TemplateLocaleSnapshot } from "@/db/schema/templates";

/** A template's localisation as a save writes it and a version keeps it. */
export interface TemplateLocales {
  defaultLocale: string;
  /** Every variant row, the default locale's (its message table) included when it has one. */
  variants: TemplateLocaleSnapshot[];
}

export const TEMPLATE_LOCALES_MAX = 100;
export const MESSAGE_KEY_MAX = 200;
export const MESSAGE_TEXT_MAX = 10_000;
export const MESSAGES_MAX = 2_000;

const nullableText = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((value) => (value == null || value.trim() === "" ? null : value));

export const templateLocaleVariantSchema = z.object({
  locale: z.string(),
  subject: nullableText(2_000),
  bodyHtml: nullableText(TEMPLATE_BODY_MAX),
  bodyText: nullableText(TEMPLATE_BODY_MAX),
  blocks: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((value) => value ?? null),
  messages: z
    .record(
      z.string().min(1, "keys must not be empty").max(MESSAGE_KEY_MAX),
      z.string().max(MESSAGE_TEXT_MAX, `a message must be at most ${MESSAGE_TEXT_MAX} characters`),
      { error: 'must be a JSON object of flat keys to texts, as {"cart.title": "Your cart"}' },
    )
    .refine((messages) => Object.keys(messages).length <= MESSAGES_MAX, `at most ${MESSAGES_MAX} keys`)
    .default({}),
  sampleData: z
    .record(z.string(), z.unknown(), { error: "must be a JSON object" })
    .nullish()
    .transform((value) => value ?? null),
  fallsBackForMissingKeys: z.boolean().default(false),
});

export type TemplateLocaleVariantInput = z.input<typeof templateLocaleVariantSchema>;

/** The canonical tag, or INVALID_PARAMETER naming `param` when the text is not a well-formed tag. */
export function canonicalLocaleOrThrow(tag: unknown, param = "locale"): string {
  const result = canonicalLocale(typeof tag === "string" ? tag : "");
  if (!result.ok) throw invalidParameter(param, `Invalid ${param}: ${result.reason}`);
  return result.locale;
}

/** Checked and canonicalised; throws naming the field (`locales[1].messages`) at fault. */
export function checkedTemplateLocales(input: {
  defaultLocale: string;
  variants: TemplateLocaleVariantInput[];
}): TemplateLocales {
  const defaultLocale = canonicalLocaleOrThrow(input.defaultLocale, "defaultLocale");
  if (input.variants.length > TEMPLATE_LOCALES_MAX) {
    throw invalidParameter("locales", `A template has at most ${TEMPLATE_LOCALES_MAX} locales.`);
  }
  const seen = new Set<string>();
  const variants = input.variants.map((raw, index) => {
    const param = `locales[${index}]`;
    if (!isPlainObject(raw)) throw invalidParameter(param, `Invalid ${param}: must be a JSON object.`);
    const parsed = templateLocaleVariantSchema.safeParse(raw);
    if (!parsed.success) throw zodToAppError(parsed.error, undefined, param);
    const variant = { ...parsed.data, locale: canonicalLocaleOrThrow(parsed.data.locale, `${param}.locale`) };
    if (seen.has(variant.locale)) {
      throw invalidParameter(`${param}.locale`, `Locale ${variant.locale} is given twice: one variant per locale.`);
    }
    seen.add(variant.locale);
    if (variant.locale === defaultLocale) {
      for (const field of ["subject", "bodyHtml", "bodyText", "blocks"] as const) {
        if (variant[field] !== null) {
          throw invalidParameter(
            `${param}.${field}`,
            `The default locale (${defaultLocale}) takes its ${field} from the template itself: its variant holds only messages and sample data.`,
          );
        }
      }
    }
    for (const [key, text] of Object.entries(variant.messages)) {
      const problem = messageProblem(text);
      if (problem) throw invalidParameter(`${param}.messages`, `Message "${key}" in ${variant.locale}: ${problem}.`);
    }
    return variant satisfies TemplateLocaleSnapshot;
  });
  return { defaultLocale, variants };
}

/** The variant rows with `variant` put in place of its locale's (or added). */
export function withVariant(variants: TemplateLocaleSnapshot[], variant: TemplateLocaleVariantInput) {
  const locale = canonicalLocale(variant.locale);
  const others = locale.ok ? variants.filter((existing) => existing.locale !== locale.locale) : variants;
  return [...others, variant];
}
