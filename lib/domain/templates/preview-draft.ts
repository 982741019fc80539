import "server-only";
import { z } from "zod";
import { env } from "@/lib/foundation/env";
import { AppError } from "@/lib/foundation/errors";
import { zodToAppError } from "@/lib/foundation/validation.shared";
import { TEMPLATE_LOCALES_MAX, templateLocaleVariantSchema } from "./locale-variants.shared";
import { canonicalLocaleOrNull } from "./locale-tag.shared";
import {
  renderLine,
  renderTemplate,
  type LocaleContext,
  type RenderedEmail,
  type TemplateField,
} from "./render.shared";
import { resolveTemplateVariant, type TemplateWithVariants } from "./template-variant.shared";
import { translationStatus, type LocaleTranslationStatus } from "./translation-status.shared";
import { missingVariables } from "./variables.shared";

/** The editor's unsaved content and sample data: the body of POST /templates/preview. */
export const previewDraftSchema = z.object({
  subject: z.string().max(2_000),
  bodyHtml: z.string().max(512_000),
  bodyText: z.string().max(512_000).nullish(),
  fromAddress: z.string().max(1_000).nullish(),
  replyTo: z.string().max(5_000).nullish(),
  strict: z.boolean().default(false),
  variables: z.record(z.string(), z.unknown()).default({}),
  /** The studio's locales (docs/templates.md#the-studio): the draft's variants, and the one to render (none: the default). */
  locale: z.string().max(100).nullish(),
  defaultLocale: z.string().max(100).nullish(),
  variants: z.array(templateLocaleVariantSchema).max(TEMPLATE_LOCALES_MAX).nullish(),
});
export type PreviewDraftInput = z.input<typeof previewDraftSchema>;

export interface PreviewProblem {
  field: TemplateField | "fromAddress" | "replyTo";
  line: number | null;
  column: number | null;
  message: string;
}

export interface PreviewResult {
  rendered: (RenderedEmail & { fromAddress: string | null; replyTo: string | null }) | null;
  problems: PreviewProblem[];
  /** Variables the template reads that the sample data lacks (strict mode refuses to render them). */
  missingVariables: string[];
  renderMs: number;
  /** With locales: the locale rendered (along the fallback chain) and every locale's keys, used and missing. */
  usedLocale: string | null;
  translations: LocaleTranslationStatus[] | null;
}

function toProblem(field: PreviewProblem["field"], error: unknown): PreviewProblem {
  const message = error instanceof Error ? error.message : String(error);
  const position = message.match(/\(line (\d+), column (\d+)\)/);
  return {
    field,
    line: position ? Number(position[1]) : null,
    column: position ? Number(position[2]) : null,
    message: message.replace(/^Template \w+( \(line \d+, column \d+\))?: /, ""),
  };
}

type Draft = z.output<typeof previewDraftSchema>;

/** Each field rendered on its own, so that every field's error is reported, not only the first. */
function fieldProblems(draft: Draft, data: Record<string, unknown>, locale?: LocaleContext): PreviewProblem[] {
  const problems: PreviewProblem[] = [];
  for (const field of ["subject", "bodyHtml", "bodyText"] as const) {
    const source = draft[field];
    if (!source) continue;
    try {
      renderTemplate(
        {
          subject: field === "subject" ? source : "",
          bodyHtml: field === "bodyHtml" ? source : "",
          bodyText: field === "bodyText" ? source : null,
        },
        data,
        { strict: draft.strict, locale },
      );
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      problems.push(toProblem(field, error));
    }
  }
  return problems;
}

/** Through the one renderer, every field's error with line and column, and the variables the sample data lacks. */
export function previewDraft(input: unknown): PreviewResult {
  const started = performance.now();
  const parsed = previewDraftSchema.safeParse(input);
  if (!parsed.success) throw zodToAppError(parsed.error);
  const { draft, locale, usedLocale, translations } = localised(parsed.data);
  const data = { unsubscribeUrl: `${env().APP_URL}/u/preview`, ...draft.variables };
  const problems: PreviewProblem[] = [];
  let missing: string[] = [];
  try {
    missing = missingVariables([draft.subject, draft.bodyHtml, draft.bodyText, draft.fromAddress, draft.replyTo], data);
  } catch {}
  let rendered: RenderedEmail | null = null;
  try {
    rendered = renderTemplate(
      { subject: draft.subject, bodyHtml: draft.bodyHtml, bodyText: draft.bodyText ?? null },
      data,
      { strict: draft.strict, locale },
    );
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    problems.push(...fieldProblems(draft, data, locale));
    if (problems.length === 0)
      problems.push(toProblem((error.param as TemplateField | undefined) ?? "bodyHtml", error));
  }
  const lines: Record<"fromAddress" | "replyTo", string | null> = { fromAddress: null, replyTo: null };
  for (const field of ["fromAddress", "replyTo"] as const) {
    const source = draft[field];
    if (!source) continue;
    try {
      lines[field] = renderLine(source, data, field, { strict: draft.strict, locale });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      problems.push(toProblem(field, error));
    }
  }
  if (problems.length > 0) rendered = null;
  return {
    rendered: rendered ? { ...rendered, ...lines } : null,
    problems,
    missingVariables: missing,
    renderMs: Math.round((performance.now() - started) * 100) / 100,
    usedLocale,
    translations,
  };
}

/**
 * With the studio's locales: the draft's content as `locale` renders it (each field from the most specific locale of
 * the chain that sets it, as a send resolves it) and every locale's translation status. Without: the draft as given.
 */
function localised(draft: Draft) {
  if (!draft.variants || !draft.defaultLocale) {
    return { draft, locale: undefined, usedLocale: null, translations: null };
  }
  const defaultLocale = canonicalLocaleOrNull(draft.defaultLocale) ?? draft.defaultLocale;
  const variants = draft.variants.map((variant) => ({
    ...variant,
    locale: canonicalLocaleOrNull(variant.locale) ?? variant.locale,
  }));
  const template: TemplateWithVariants = {
    subject: draft.subject,
    bodyHtml: draft.bodyHtml,
    bodyText: draft.bodyText ?? null,
    defaultLocale,
    variants,
  };
  const resolved = resolveTemplateVariant(template, draft.locale ?? defaultLocale);
  return {
    draft: { ...draft, ...resolved.source },
    locale: resolved.localeContext,
    usedLocale: resolved.usedLocale,
    translations: translationStatus(template),
  };
}
