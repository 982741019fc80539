import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { preparedFor } from "@/db/prepared";
import { templates } from "@/db/schema";
import { env } from "@/lib/foundation/env";
import { invalidParameter, notFound } from "@/lib/foundation/errors";
import { isPlainObject } from "@/lib/foundation/validation.shared";
import { compiledVersion } from "./compiled-versions";
import { canonicalLocaleOrThrow } from "./locale-variants.shared";
import { localeChoice } from "./locale-choices";
import {
  renderCompiled,
  renderTemplate,
  type LocaleContext,
  type RenderedEmail,
  type TemplateSource,
} from "./render.shared";
import { loadTemplateVariant } from "./template-locale-rows";

/** What /render answers: the email, and the locale it was rendered in (docs/templates.md#localisation). */
export interface RenderedInLocale {
  rendered: RenderedEmail;
  /** The locale of the chain the template has (a variant, or the default). */
  usedLocale: string;
  /** The request canonicalised; null when none was asked. */
  requestedLocale: string | null;
}

/** As renderTemplateByIdInLocale, in the template's default locale. */
export async function renderTemplateById(
  workspaceId: string,
  templateId: string,
  variables: unknown,
): Promise<RenderedEmail> {
  return (await renderTemplateByIdInLocale(workspaceId, templateId, variables, undefined)).rendered;
}

/**
 * As a send would render it: a prepared read of version and strict flag, then per version and requested locale the
 * variant chosen along the fallback chain (fr-CA → fr → default; a malformed `locale` is 400 naming it) and its
 * parsed fields, both cached: a save bumps the version, so the next render loads the new content. The cost per
 * render does not grow with the number of variants (only the chain's rows are read, and once per version).
 */
export async function renderTemplateByIdInLocale(
  workspaceId: string,
  templateId: string,
  variables: unknown,
  locale: unknown,
): Promise<RenderedInLocale> {
  assertVariablesObject(variables);
  const requested = locale === undefined || locale === null ? null : canonicalLocaleOrThrow(locale);
  const db = await getDb();
  const findVersion = preparedFor(db, "template-version", () =>
    db
      .select({ version: templates.version, strict: templates.strict })
      .from(templates)
      .where(
        and(eq(templates.workspaceId, sql.placeholder("workspaceId")), eq(templates.id, sql.placeholder("templateId"))),
      )
      .prepare("template_version"),
  );
  const [current] = await findVersion.execute({ workspaceId, templateId });
  if (!current) throw notFound(`Template ${templateId}`, "id");
  const load = () => loadTemplateVariant(db, workspaceId, templateId, requested, "id");
  const choice = await localeChoice(templateId, current.version, requested, load);
  const compiled = await compiledVersion(
    templateId,
    choice.version,
    async () => {
      const { template, resolved } = await load();
      return { ...resolved.source, version: template.version };
    },
    choice.variantKey,
  );
  const rendered = renderCompiled(compiled, withPreviewDefaults(variables), {
    strict: current.strict,
    locale: choice.localeContext,
  });
  return { rendered, usedLocale: choice.localeContext.locale, requestedLocale: requested };
}

export function assertVariablesObject(
  variables: unknown,
): asserts variables is Record<string, unknown> | null | undefined {
  if (variables !== undefined && variables !== null && !isPlainObject(variables)) {
    throw invalidParameter("variables", "variables must be a JSON object.");
  }
}

/** A loaded template rendered as /render and /preview do (variables already checked), in a resolved variant's locale. */
export function renderStoredTemplate(
  template: TemplateSource & { strict: boolean },
  variables: Record<string, unknown> | null | undefined,
  locale?: LocaleContext,
): RenderedEmail {
  return renderTemplate(template, withPreviewDefaults(variables), { strict: template.strict, locale });
}

// A preview has no recipient: a stand-in link rather than an empty href or, in strict mode, an error.
function withPreviewDefaults(variables: Record<string, unknown> | null | undefined): Record<string, unknown> {
  return { unsubscribeUrl: `${env().APP_URL}/u/preview`, ...variables };
}
