"use client";

import { localeAncestors } from "@/lib/domain/templates/locale-tag.shared";
import type { LocaleTranslationStatus } from "@/lib/domain/templates/translation-status.shared";
import type { LocaleDraft } from "./types";

export interface TranslationTableProps {
  defaultLocale: string;
  locales: string[];
  variants: LocaleDraft[];
  /** From the draft preview: each locale's used keys (null until the first answer). */
  translations: LocaleTranslationStatus[] | null;
  onMessage: (locale: string, key: string, text: string) => void;
  onFallsBack: (locale: string, value: boolean) => void;
}

/** The text a locale has for a key: its own, else its language's (`fr-CA` reads `fr`); the default's is its own. */
function textFor(variants: LocaleDraft[], locale: string, defaultLocale: string, key: string) {
  const chain = locale === defaultLocale ? [locale] : localeAncestors(locale).filter((tag) => tag !== defaultLocale);
  for (const tag of chain) {
    const messages = variants.find((variant) => variant.locale === tag)?.messages;
    if (messages && Object.hasOwn(messages, key)) return { text: messages[key], own: tag === locale };
  }
  return null;
}

/**
 * Keys × locales: every key a locale's content uses or a table holds, one editable cell per locale. A used key with
 * no text (its own or its language's) is highlighted: publishing refuses it unless the locale falls back for missing
 * keys (the default's text is sent then). Missing cells are worked out here, as you type, the way the lint does.
 */
export function TranslationTable(props: TranslationTableProps) {
  const { defaultLocale, locales, variants, translations, onMessage, onFallsBack } = props;
  const used = (locale: string) => translations?.find((status) => status.locale === locale)?.usedKeys ?? [];
  const keys = [
    ...new Set([
      ...(translations ?? []).flatMap((status) => status.usedKeys ?? []),
      ...variants.flatMap((variant) => Object.keys(variant.messages)),
    ]),
  ].sort();
  const fallsBack = (locale: string) =>
    variants.find((variant) => variant.locale === locale)?.fallsBackForMissingKeys ?? false;

  if (keys.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        No translation keys yet: write <code className="font-mono">{'{% t "cart.title" %}'}</code> or{" "}
        <code className="font-mono">{'{{ "cart.title" | t }}'}</code> in the subject or body, and each key gets a row
        here.
      </p>
    );
  }
  return (
    <div className="relative overflow-x-auto rounded-lg border border-slate-200">
      <table aria-label="Translations" className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-medium text-slate-500">
          <tr>
            <th scope="col" className="px-3 py-2">
              Key
            </th>
            {locales.map((locale) => (
              <th key={locale} scope="col" className="min-w-40 px-3 py-2 align-bottom">
                <span className="block text-sm font-semibold text-slate-800">
                  {locale}
                  {locale === defaultLocale ? " (default)" : ""}
                </span>
                {locale !== defaultLocale ? (
                  <label className="mt-1 flex items-center gap-1.5 font-normal text-slate-600">
                    <input
                      type="checkbox"
                      checked={fallsBack(locale)}
                      onChange={(event) => onFallsBack(locale, event.target.checked)}
                    />
                    Falls back for missing keys
                  </label>
                ) : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {keys.map((key) => (
            <tr key={key}>
              <th scope="row" className="px-3 py-2 align-top font-mono text-xs font-normal break-all text-slate-700">
                {key}
              </th>
              {locales.map((locale) => {
                const found = textFor(variants, locale, defaultLocale, key);
                const missing = !found && used(locale).includes(key);
                const tolerated = missing && fallsBack(locale);
                return (
                  <td
                    key={locale}
                    className={`px-2 py-1.5 align-top ${missing && !tolerated ? "bg-amber-50" : ""}`}
                    data-testid="translation-cell"
                    data-locale={locale}
                    data-key={key}
                    data-missing={missing ? (tolerated ? "falls-back" : "true") : undefined}
                  >
                    <input
                      value={found?.own ? found.text : ""}
                      onChange={(event) => onMessage(locale, key, event.target.value)}
                      aria-label={`${key} in ${locale}`}
                      aria-invalid={missing && !tolerated ? true : undefined}
                      placeholder={found ? found.text : missing ? (tolerated ? "Default's text" : "Missing") : ""}
                      maxLength={10_000}
                      className={`block w-full rounded-md bg-white px-2 py-1 text-sm text-slate-900 ring-1 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-indigo-600 focus:outline-none ${
                        missing && !tolerated ? "ring-amber-400" : "ring-slate-300"
                      }`}
                    />
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
