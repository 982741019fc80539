/**
 * The locale a message rendered in, in words (docs/dashboard.md, an email's page): the used locale, and the requested one
 * when it differs (a fallback along the chain, docs/templates.md#the-fallback-chain). Null: no locale at all (a raw
 * send that named none, or a message from before locales).
 */
export interface LocaleFacts {
  locale: string | null;
  requestedLocale: string | null;
}

export function localeWords(message: LocaleFacts): string | null {
  const { locale, requestedLocale } = message;
  if (locale === null) return requestedLocale === null ? null : `requested ${requestedLocale}`;
  if (requestedLocale === null) return `${locale} (the template's default: none requested)`;
  if (requestedLocale === locale) return locale;
  return `${locale} (requested ${requestedLocale})`;
}
