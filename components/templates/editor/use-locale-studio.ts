"use client";

import { useCallback, useState, type Dispatch, type SetStateAction } from "react";
import type { BlocksDocument } from "@/lib/domain/templates/blocks.shared";
import { canonicalLocale, localeAncestors } from "@/lib/domain/templates/locale-tag.shared";
import type { CompiledBlocks } from "./blocks-body";
import type { Draft, LocaleDraft } from "./types";

/** The content fields a locale may set for itself (the others are the template's, whatever the locale). */
export type LocaleContentField = "subject" | "bodyHtml" | "bodyText" | "blocks";
export interface LocaleContent {
  subject: string;
  bodyHtml: string;
  bodyText: string;
  blocks: BlocksDocument | null;
}

const emptyLocale = (locale: string): LocaleDraft => ({
  locale,
  subject: null,
  bodyHtml: null,
  bodyText: null,
  blocks: null,
  messages: {},
  sampleData: null,
  fallsBackForMissingKeys: false,
});

/** A locale's content as it renders: each field from the most specific locale of its chain that sets it. */
function effectiveContent(draft: Draft, locale: string, defaultLocale: string): LocaleContent {
  const own: LocaleContent = {
    subject: draft.subject,
    bodyHtml: draft.bodyHtml,
    bodyText: draft.bodyText,
    blocks: draft.blocks,
  };
  if (locale === defaultLocale) return own;
  const chain = localeAncestors(locale)
    .filter((tag) => tag !== defaultLocale)
    .map((tag) => draft.variants.find((variant) => variant.locale === tag))
    .filter((variant): variant is LocaleDraft => Boolean(variant));
  const pick = <K extends LocaleContentField>(field: K) => chain.find((variant) => variant[field] !== null)?.[field];
  return {
    subject: pick("subject") ?? own.subject,
    bodyHtml: pick("bodyHtml") ?? own.bodyHtml,
    bodyText: pick("bodyText") ?? own.bodyText,
    blocks: pick("blocks") ?? own.blocks,
  };
}

/**
 * The studio's locales (docs/templates.md#the-studio): which locale the editor shows, its content (editing a variant's
 * inherited field gives it its own), "add a locale" (a copy of the default's content, an empty table), message cells
 * and the fall-back flag. Everything stays in the draft until Save publishes it, linted, as one version.
 */
export function useLocaleStudio(draft: Draft, setDraft: Dispatch<SetStateAction<Draft>>, defaultLocale: string) {
  const [active, setActive] = useState(defaultLocale);
  // A variant's blocks compile in the browser like the default's; kept apart so that opening one is not a change.
  const [compiled, setCompiled] = useState<Record<string, CompiledBlocks>>({});
  const isDefault = active === defaultLocale || !draft.variants.some((variant) => variant.locale === active);
  const activeLocale = isDefault ? defaultLocale : active;

  const withVariant = useCallback(
    (locale: string, change: (variant: LocaleDraft) => LocaleDraft) =>
      setDraft((current) => {
        const exists = current.variants.some((variant) => variant.locale === locale);
        const variants = exists ? current.variants : [...current.variants, emptyLocale(locale)];
        return {
          ...current,
          variants: variants.map((variant) => (variant.locale === locale ? change(variant) : variant)),
        };
      }),
    [setDraft],
  );

  const setContent = useCallback(
    <K extends LocaleContentField>(field: K, value: LocaleContent[K]) => {
      if (activeLocale === defaultLocale) return setDraft((current) => ({ ...current, [field]: value }));
      withVariant(activeLocale, (variant) => ({ ...variant, [field]: value }));
    },
    [activeLocale, defaultLocale, setDraft, withVariant],
  );

  const onVariantCompiled = useCallback(
    (next: CompiledBlocks) => setCompiled((current) => ({ ...current, [activeLocale]: next })),
    [activeLocale],
  );

  /** Null when added (and shown), else why not. */
  const addLocale = (tag: string, copyContent: boolean, defaultHtml: string): string | null => {
    const parsed = canonicalLocale(tag.trim());
    if (!parsed.ok) return `"${tag}" is not a language tag (${parsed.reason}): try de, pt-BR or zh-Hant.`;
    const locale = parsed.locale;
    if (locale === defaultLocale) return `${locale} is the default locale.`;
    if (draft.variants.some((variant) => variant.locale === locale && variant.locale !== defaultLocale))
      return `The template has ${locale} already.`;
    const copy = copyContent
      ? {
          subject: draft.subject,
          bodyHtml: defaultHtml,
          bodyText: draft.bodyText || null,
          blocks: draft.blocks,
        }
      : {};
    setDraft((current) => ({ ...current, variants: [...current.variants, { ...emptyLocale(locale), ...copy }] }));
    setActive(locale);
    return null;
  };

  const removeLocale = (locale: string) => {
    setDraft((current) => ({ ...current, variants: current.variants.filter((variant) => variant.locale !== locale) }));
    if (locale === active) setActive(defaultLocale);
  };

  const setMessage = (locale: string, key: string, text: string) =>
    withVariant(locale, (variant) => {
      const messages = { ...variant.messages };
      if (text === "") delete messages[key];
      else messages[key] = text;
      return { ...variant, messages };
    });

  const setFallsBack = (locale: string, value: boolean) =>
    withVariant(locale, (variant) => ({ ...variant, fallsBackForMissingKeys: value }));

  /** The variants as saved and previewed: a blocks variant with the HTML its document compiled to. */
  const variantsOut = (): LocaleDraft[] =>
    draft.variants.map((variant) => {
      const html = variant.blocks ? compiled[variant.locale]?.html : undefined;
      return html ? { ...variant, bodyHtml: html } : variant;
    });

  return {
    locales: [defaultLocale, ...draft.variants.map((v) => v.locale).filter((locale) => locale !== defaultLocale)],
    activeLocale,
    isDefault: activeLocale === defaultLocale,
    setActive,
    content: effectiveContent(draft, activeLocale, defaultLocale),
    /** The active variant's own value of a field (null: inherited). */
    overrides: (field: LocaleContentField) =>
      activeLocale === defaultLocale ||
      draft.variants.find((variant) => variant.locale === activeLocale)?.[field] != null,
    compiledProblem: isDefault ? null : (compiled[activeLocale]?.problem ?? null),
    setContent,
    onVariantCompiled,
    addLocale,
    removeLocale,
    setMessage,
    setFallsBack,
    variantsOut,
  };
}

export type LocaleStudio = ReturnType<typeof useLocaleStudio>;
