// Intl formatters kept per locale and options: building one costs more than the rest of a render
// (docs/benchmarks.md#template-render-issue-20-2026-11-25). Pure; shared by the Liquid filters and the `t` tag.
import type { MessageFormatters } from "./icu-message.shared";

const LIMIT = 500;
const cache = new Map<string, unknown>();

function cached<T>(key: string, build: () => T): T {
  const hit = cache.get(key);
  if (hit !== undefined) return hit as T;
  const made = build();
  if (cache.size >= LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, made);
  return made;
}

export const DATE_STYLES = ["short", "medium", "long", "full"] as const;
export type DateStyle = (typeof DATE_STYLES)[number];

export function isDateStyle(value: unknown): value is DateStyle {
  return typeof value === "string" && (DATE_STYLES as readonly string[]).includes(value);
}

export function numberFormat(locale: string, fractionDigits?: number): Intl.NumberFormat {
  return cached(`n\u0000${locale}\u0000${fractionDigits ?? ""}`, () =>
    fractionDigits === undefined
      ? new Intl.NumberFormat(locale)
      : new Intl.NumberFormat(locale, { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits }),
  );
}

/** Throws RangeError for an unknown currency code (the filter turns it into a render error). */
export function moneyFormat(locale: string, currency: string): Intl.NumberFormat {
  return cached(
    `m\u0000${locale}\u0000${currency}`,
    () => new Intl.NumberFormat(locale, { style: "currency", currency }),
  );
}

/** Throws RangeError for an unknown time zone. */
export function dateFormat(locale: string, style: DateStyle, timeZone: string): Intl.DateTimeFormat {
  return cached(
    `d\u0000${locale}\u0000${style}\u0000${timeZone}`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: style, timeZone }),
  );
}

export function pluralRules(locale: string, ordinal: boolean): Intl.PluralRules {
  return cached(
    `p\u0000${locale}\u0000${ordinal}`,
    () => new Intl.PluralRules(locale, { type: ordinal ? "ordinal" : "cardinal" }),
  );
}

export const messageFormatters: MessageFormatters = {
  pluralRules,
  number: (locale) => numberFormat(locale),
};
