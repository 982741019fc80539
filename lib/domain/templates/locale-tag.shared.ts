// BCP 47 locale tags for template variants (docs/templates.md#localisation). Pure: the send path, the API and the
// studio all compare tags through canonicalLocale, so `EN_us`, `en-us` and `en-US` are one variant.

export type CanonicalLocale = { ok: true; locale: string } | { ok: false; reason: string };

const MAX_TAG_LENGTH = 64;

/**
 * `EN_us` → `en-US`, `zh-hant` → `zh-Hant`, `sr_latn_rs` → `sr-Latn-RS` (underscores accepted, case ignored).
 * Not ok only when the text is not a well-formed tag at all; a well-formed tag no variant has is still ok.
 */
export function canonicalLocale(tag: string): CanonicalLocale {
  const text = typeof tag === "string" ? tag.trim().replaceAll("_", "-") : "";
  if (text === "" || text.length > MAX_TAG_LENGTH) return notWellFormed(tag);
  let canonical: string[];
  try {
    canonical = Intl.getCanonicalLocales(text);
  } catch (error) {
    // RangeError: Incorrect locale information provided.
    if (error instanceof RangeError) return notWellFormed(tag);
    throw error;
  }
  const [locale] = canonical;
  return locale ? { ok: true, locale } : notWellFormed(tag);
}

function notWellFormed(tag: unknown): CanonicalLocale {
  const shown = typeof tag === "string" ? JSON.stringify(tag.slice(0, MAX_TAG_LENGTH)) : String(tag);
  return {
    ok: false,
    reason: `${shown} is not a well-formed BCP 47 language tag (examples: en, fr-CA, pt-BR, zh-Hant).`,
  };
}

/** The canonical tag, or null when the text is not a well-formed tag. */
export function canonicalLocaleOrNull(tag: string): string | null {
  const result = canonicalLocale(tag);
  return result.ok ? result.locale : null;
}

/**
 * The tags to try for a canonical locale, most specific first: `zh-Hant-TW` → `zh-Hant` → `zh`,
 * `fr-CA` → `fr`. Extensions (`-u-…`, `-x-…`) are dropped: variants are stored without them.
 */
export function localeAncestors(locale: string): string[] {
  const subtags = locale.split("-");
  const singleton = subtags.findIndex((subtag, index) => index > 0 && subtag.length === 1);
  const base = singleton === -1 ? subtags : subtags.slice(0, singleton);
  const chain: string[] = [];
  for (let length = base.length; length >= 1; length--) chain.push(base.slice(0, length).join("-"));
  return chain;
}

/**
 * The whole fallback chain: the requested tag's ancestors, then the template's default locale. Malformed or absent
 * requests fall straight to the default (a send never fails over a locale; the API refuses a malformed one earlier).
 */
export function localeChain(requested: string | null | undefined, defaultLocale: string): string[] {
  const canonical = requested ? canonicalLocaleOrNull(requested) : null;
  const chain = canonical ? localeAncestors(canonical) : [];
  if (!chain.includes(defaultLocale)) chain.push(defaultLocale);
  return chain;
}

export interface LocaleChoice {
  /** The request as canonicalised (the raw text when it was not well formed; null when none was asked). */
  requestedLocale: string | null;
  /** The first locale of the chain the template has: a variant, or the default. */
  usedLocale: string;
  /** The locales of the chain the template has, from usedLocale to the default: the order content is inherited in. */
  chain: string[];
}

/** Picks the first locale of the chain that exists among `available` (the default always does). */
export function chooseLocale(
  requested: string | null | undefined,
  defaultLocale: string,
  available: Iterable<string>,
): LocaleChoice {
  const have = new Set(available);
  have.add(defaultLocale);
  const chain = localeChain(requested, defaultLocale).filter((locale) => have.has(locale));
  const requestedLocale = requested ? (canonicalLocaleOrNull(requested) ?? requested) : null;
  return { requestedLocale, usedLocale: chain[0], chain };
}

// Scripts written right to left; the language list is for runtimes without Intl.Locale's textInfo.
const RTL_SCRIPTS = new Set(["Arab", "Hebr", "Thaa", "Syrc", "Nkoo", "Adlm", "Rohg", "Mand", "Samr"]);
const RTL_LANGUAGES = new Set([
  "ar", "arc", "ckb", "dv", "fa", "he", "iw", "khw", "ks", "ku", "ps", "sd", "syr", "ug", "ur", "yi",
]); // prettier-ignore

type LocaleWithTextInfo = Intl.Locale & {
  textInfo?: { direction?: string };
  getTextInfo?: () => { direction?: string };
};

const directions = new Map<string, "ltr" | "rtl">();

/** `rtl` for Arabic, Hebrew, Persian, Urdu… (and `az-Arab`), else `ltr`; unknown or malformed tags are `ltr`. */
export function textDirection(locale: string): "ltr" | "rtl" {
  const known = directions.get(locale);
  if (known) return known;
  const direction = computeDirection(locale);
  if (directions.size < 1_000) directions.set(locale, direction);
  return direction;
}

function computeDirection(locale: string): "ltr" | "rtl" {
  let parsed: LocaleWithTextInfo;
  try {
    parsed = new Intl.Locale(locale) as LocaleWithTextInfo;
  } catch {
    return "ltr";
  }
  // An explicit script decides (Node 20's textInfo answers `ltr` for az-Arab).
  if (parsed.script) return RTL_SCRIPTS.has(parsed.script) ? "rtl" : "ltr";
  const info = parsed.getTextInfo?.() ?? parsed.textInfo;
  if (info?.direction === "rtl" || info?.direction === "ltr") return info.direction;
  return RTL_LANGUAGES.has(parsed.language) ? "rtl" : "ltr";
}
