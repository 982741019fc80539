// Which variant of a template a render uses, and what it renders with (docs/templates.md#localisation). Pure: the
// send path, /render, /preview and the studio resolve the same way.
import type { TemplateLocaleSnapshot } from "@/db/schema/templates";
import type { LocaleContext } from "./locale-liquid.shared";
import { chooseLocale } from "./locale-tag.shared";
import type { TemplateSource } from "./render.shared";

/** The template's own content and default locale, and the variant rows at hand (all, or only the chain's). */
export interface TemplateWithVariants extends TemplateSource {
  defaultLocale: string;
  variants: ReadonlyArray<
    Pick<
      TemplateLocaleSnapshot,
      "locale" | "subject" | "bodyHtml" | "bodyText" | "messages" | "fallsBackForMissingKeys"
    >
  >;
}

export interface ResolvedTemplateVariant {
  /** The content to render: each field from the most specific locale of the chain that sets it. */
  source: TemplateSource;
  /** The used locale's message table: its keys over its language's (`fr-CA` over `fr`), the default's excluded. */
  messages: Record<string, string>;
  /** The default locale's message table: a key the variant lacks renders from it. */
  fallbackMessages: Record<string, string>;
  /** As given to render's `locale` option. */
  localeContext: LocaleContext;
  /** The request canonicalised (as given when not well formed; null when none): what the timeline shows. */
  requestedLocale: string | null;
  usedLocale: string;
  /** The used variant accepts the default's text for its missing keys (the publish lint reads it). */
  fallsBackForMissingKeys: boolean;
}

/**
 * `fr-CA` → `fr` → the default: the first locale of the chain the template has. Never fails: a malformed or unknown
 * request renders the default locale.
 */
export function resolveTemplateVariant(
  template: TemplateWithVariants,
  requestedLocale: string | null | undefined,
): ResolvedTemplateVariant {
  const byLocale = new Map(template.variants.map((variant) => [variant.locale, variant]));
  const choice = chooseLocale(requestedLocale, template.defaultLocale, byLocale.keys());
  const source: TemplateSource = {
    subject: template.subject,
    bodyHtml: template.bodyHtml,
    bodyText: template.bodyText,
  };
  // Null-prototype tables: a key named "__proto__" is a key like any other.
  const fallbackMessages = tableOf(byLocale.get(template.defaultLocale)?.messages);
  let messages = fallbackMessages;
  if (choice.usedLocale !== template.defaultLocale) {
    messages = tableOf();
    for (const locale of [...choice.chain].reverse()) {
      const variant = byLocale.get(locale);
      if (!variant || locale === template.defaultLocale) continue;
      if (variant.subject !== null) source.subject = variant.subject;
      if (variant.bodyHtml !== null) source.bodyHtml = variant.bodyHtml;
      if (variant.bodyText !== null) source.bodyText = variant.bodyText;
      Object.assign(messages, variant.messages);
    }
  }
  return {
    source,
    messages,
    fallbackMessages,
    localeContext: {
      locale: choice.usedLocale,
      messages,
      fallbackMessages,
      fallbackLocale: template.defaultLocale,
    },
    requestedLocale: choice.requestedLocale,
    usedLocale: choice.usedLocale,
    fallsBackForMissingKeys: byLocale.get(choice.usedLocale)?.fallsBackForMissingKeys ?? false,
  };
}

function tableOf(messages?: Record<string, string>): Record<string, string> {
  return Object.assign(Object.create(null) as Record<string, string>, messages);
}
