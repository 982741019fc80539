import "server-only";
import { asc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templateScenarios } from "@/db/schema";
import {
  checkRenderedContent,
  sortFindings,
  type ContentFinding,
  type RenderedContent,
} from "@/lib/domain/templates/content-checks.shared";
import { canonicalLocaleOrThrow } from "@/lib/domain/templates/locale-variants.shared";
import { assertVariablesObject, renderTemplateByIdInLocale } from "@/lib/domain/templates/render-template-by-id";
import { loadTemplateVariant, readTemplateLocales } from "@/lib/domain/templates/template-locale-rows";
import { blankVariables } from "@/lib/domain/templates/variables.shared";
import type { SpamVerdict } from "@/lib/flows/inbound/parse/types";
import { checkStatus, spamFinding, spamVerdict } from "./spam-finding";
import { env } from "@/lib/foundation/env";

export interface ContentCheckInput {
  workspaceId: string;
  templateId: string;
  /** One locale (along its fallback chain); none: the default and every variant. */
  locale?: unknown;
  /** The data to render with; none: each locale's sample data, else the template's first scenario. */
  variables?: unknown;
  /** Mail of an unsubscribe group: a missing unsubscribe link is an error. */
  groupMail?: boolean;
}

export interface ContentCheckResult {
  /** error when a finding is an error, warning when one is a warning, else pass. */
  status: "pass" | "warning" | "error";
  findings: ContentFinding[];
  spam: SpamVerdict;
  locales: string[];
}

/**
 * The content checks of a template's current version (docs/deliverability.md#content-checks): each locale rendered
 * with its sample data and checked by the pure rules, and the default locale's MIME scored by SpamAssassin when
 * SPAMD_URL is set. Reads only; records nothing.
 */
export async function checkTemplateContent(input: ContentCheckInput): Promise<ContentCheckResult> {
  assertVariablesObject(input.variables);
  const db = await getDb();
  const { template } = await loadTemplateVariant(db, input.workspaceId, input.templateId, null, "id");
  const locales =
    input.locale === undefined || input.locale === null
      ? [template.defaultLocale, ...(await variantLocales(template.id, template.defaultLocale))]
      : [canonicalLocaleOrThrow(input.locale)];
  const fallback = await firstScenario(template.id);
  const findings: ContentFinding[] = [];
  let first: RenderedContent | null = null;
  for (const locale of locales) {
    const { resolved, variants } = await loadTemplateVariant(db, input.workspaceId, template.id, locale, "id");
    const sample = variants.find((variant) => variant.locale === resolved.usedLocale)?.sampleData;
    const variables = (input.variables as Record<string, unknown> | undefined) ?? sample ?? fallback;
    const { rendered } = await renderTemplateByIdInLocale(input.workspaceId, template.id, variables, locale);
    const content = {
      subject: rendered.subject,
      html: rendered.bodyHtml,
      text: resolved.source.bodyText ? rendered.bodyText : null,
    };
    first ??= content;
    const emptyVariables = blankVariables(
      [resolved.source.subject, resolved.source.bodyHtml, resolved.source.bodyText],
      variables,
    );
    const context = {
      emptyVariables,
      groupMail: input.groupMail ?? false,
      unsubscribeUrl: `${env().APP_URL}/u/preview`,
    };
    for (const found of checkRenderedContent(content, context))
      findings.push(locales.length > 1 ? { ...found, locale } : found);
  }
  const spam = await spamVerdict(first!);
  const all = sortFindings([spamFinding(spam), ...findings]);
  return { status: checkStatus(all), findings: all, spam, locales };
}

async function variantLocales(templateId: string, defaultLocale: string): Promise<string[]> {
  const rows = await readTemplateLocales(await getDb(), templateId);
  return rows.map((row) => row.locale).filter((locale) => locale !== defaultLocale);
}

async function firstScenario(templateId: string): Promise<Record<string, unknown>> {
  const [row] = await (
    await getDb()
  )
    .select({ variables: templateScenarios.variables })
    .from(templateScenarios)
    .where(eq(templateScenarios.templateId, templateId))
    .orderBy(asc(templateScenarios.name))
    .limit(1);
  return row?.variables ?? {};
}
