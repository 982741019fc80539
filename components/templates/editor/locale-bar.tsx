"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";
import type { LocaleTranslationStatus } from "@/lib/domain/templates/translation-status.shared";

export interface LocaleBarProps {
  locales: string[];
  defaultLocale: string;
  active: string;
  onSelect: (locale: string) => void;
  /** Null when added, else why not (shown under the field). */
  onAdd: (tag: string, copyContent: boolean) => string | null;
  onRemove: (locale: string) => void;
  translations: LocaleTranslationStatus[] | null;
}

/**
 * The studio's locale switcher: the default and each variant (a count of its missing keys beside it), "Add a locale"
 * (a copy of the default's content to translate) and removing the variant shown. Changes are published by Save.
 */
export function LocaleBar({ locales, defaultLocale, active, onSelect, onAdd, onRemove, translations }: LocaleBarProps) {
  const [adding, setAdding] = useState(false);
  const [tag, setTag] = useState("");
  const [copyContent, setCopyContent] = useState(true);
  const [problem, setProblem] = useState<string | null>(null);
  const missingOf = (locale: string) => {
    const status = translations?.find((entry) => entry.locale === locale);
    return status && !status.fallsBackForMissingKeys ? status.missingKeys.length : 0;
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const refused = onAdd(tag, copyContent);
    setProblem(refused);
    if (!refused) {
      setTag("");
      setAdding(false);
    }
  };

  return (
    <div className="space-y-2 rounded-lg bg-white p-3 shadow-xs ring-1 ring-slate-200">
      <div className="flex flex-wrap items-center gap-2">
        <span id="locale-switcher-label" className="text-sm font-medium text-slate-800">
          Locale
        </span>
        <div role="tablist" aria-labelledby="locale-switcher-label" className="flex flex-wrap gap-1">
          {locales.map((locale) => {
            const missing = missingOf(locale);
            return (
              <button
                key={locale}
                type="button"
                role="tab"
                aria-selected={locale === active}
                onClick={() => onSelect(locale)}
                data-testid="locale-tab"
                className={`rounded-md px-2.5 py-1 text-sm font-medium ring-1 ring-inset focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ${
                  locale === active
                    ? "bg-indigo-600 text-white ring-indigo-600"
                    : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50"
                }`}
              >
                {locale}
                {locale === defaultLocale ? " (default)" : ""}
                {missing > 0 ? (
                  <span className="ml-1.5 rounded bg-amber-100 px-1 text-xs text-amber-900" title="Missing keys">
                    {missing} missing
                  </span>
                ) : null}
              </button>
            );
          })}
        </div>
        <div className="ml-auto flex flex-wrap gap-2">
          {active !== defaultLocale ? (
            <Button variant="ghost" onClick={() => onRemove(active)}>
              Remove {active}
            </Button>
          ) : null}
          <Button variant="secondary" onClick={() => setAdding((open) => !open)} aria-expanded={adding}>
            Add a locale
          </Button>
        </div>
      </div>
      {adding ? (
        <form onSubmit={submit} className="flex flex-wrap items-end gap-3 border-t border-slate-200 pt-2">
          <label className="block text-sm">
            <span className="mb-1 block font-medium text-slate-800">Language tag</span>
            <Input
              value={tag}
              onChange={(event) => setTag(event.target.value)}
              placeholder="de, pt-BR, zh-Hant"
              maxLength={35}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? "add-locale-problem" : undefined}
              className="w-40"
              autoFocus
            />
          </label>
          <label className="flex items-center gap-2 pb-1.5 text-sm text-slate-700">
            <input type="checkbox" checked={copyContent} onChange={(event) => setCopyContent(event.target.checked)} />
            Copy the default&apos;s subject and body to edit
          </label>
          <Button type="submit">Add</Button>
          {problem ? (
            <p id="add-locale-problem" className="w-full text-sm text-red-700" role="alert">
              {problem}
            </p>
          ) : null}
        </form>
      ) : null}
    </div>
  );
}
