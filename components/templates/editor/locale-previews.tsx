"use client";

import { PreviewPane } from "./preview-pane";
import type { PreviewProblem } from "./types";
import type { useDraftPreview } from "./use-draft-preview";

type Preview = ReturnType<typeof useDraftPreview>;

export interface LocalePreviewsProps {
  defaultLocale: string;
  /** The variant shown in the editor; null while the default is. */
  variantLocale: string | null;
  defaultPreview: Preview;
  variantPreview: Preview;
  strict: boolean;
  staleData: boolean;
  onGoTo: (problem: PreviewProblem) => void;
  /** A problem of the default's pane while a variant is edited: show the default first. */
  onShowDefault: () => void;
}

/**
 * The draft rendered, each in its own sandboxed frame: the default locale alone, or, while a variant is edited, the
 * variant beside the default (stacked on narrow screens). The variant renders along its chain as a send would: a key
 * it lacks renders the default's text (the translation table and Save's lint are what point it out).
 */
export function LocalePreviews(props: LocalePreviewsProps) {
  const { defaultLocale, variantLocale, defaultPreview, variantPreview, strict, staleData } = props;
  const pane = (preview: Preview, locale: string | undefined, onGoTo: LocalePreviewsProps["onGoTo"]) => (
    <PreviewPane
      result={preview.data}
      error={preview.error}
      pending={preview.pending}
      strict={strict}
      staleData={staleData}
      onGoTo={onGoTo}
      locale={locale}
    />
  );
  if (!variantLocale) return pane(defaultPreview, undefined, props.onGoTo);
  return (
    <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-1 2xl:grid-cols-2">
      <section aria-label={`Preview in ${variantLocale}`} data-testid="preview-variant" className="min-w-0">
        <h3 className="mb-2 text-sm font-semibold text-slate-800">{variantLocale}</h3>
        {pane(variantPreview, variantLocale, props.onGoTo)}
      </section>
      <section
        aria-label={`Preview in ${defaultLocale} (default)`}
        data-testid="preview-default"
        className="min-w-0 border-t border-slate-200 pt-4 md:border-t-0 md:pt-0 xl:border-t xl:pt-4 2xl:border-t-0 2xl:pt-0"
      >
        <h3 className="mb-2 text-sm font-semibold text-slate-800">{defaultLocale} (default)</h3>
        {pane(defaultPreview, defaultLocale, () => props.onShowDefault())}
      </section>
    </div>
  );
}
