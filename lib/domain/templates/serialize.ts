import type { templates } from "@/db/schema";
import type { TemplateVersionSummary } from "./list-template-versions";
import type { TemplateScenario } from "./list-template-scenarios";
import type { PreviewResult } from "./preview-draft";
import type { RenderedEmail } from "./render.shared";
import type { TemplateVersionRow } from "./get-template-version-or-throw";

export function serializeRendered(
  rendered: RenderedEmail,
  at = new Date(),
  locale?: { usedLocale: string; requestedLocale: string | null },
) {
  return {
    type: "RenderedTemplate" as const,
    createdAt: at.toISOString(),
    bodyHtml: rendered.bodyHtml,
    bodyText: rendered.bodyText,
    subject: rendered.subject,
    // The variant rendered and the request it answered (docs/templates.md#localisation): /render says which it used.
    ...(locale ? { locale: locale.usedLocale, requestedLocale: locale.requestedLocale } : {}),
  };
}

/** The raw Template (docs/api.md#resources) plus the fields the management endpoints use: added, none renamed. */
export function serializeRawTemplate(template: typeof templates.$inferSelect) {
  return {
    id: template.id,
    type: "Template" as const,
    createdAt: template.createdAt.toISOString(),
    updatedAt: template.updatedAt.toISOString(),
    rawSubject: template.subject,
    rawBodyHtml: template.bodyHtml,
    rawBodyText: template.bodyText,
    name: template.name,
    version: template.version,
    kind: template.kind,
    blocks: template.blocks,
    fromAddress: template.fromAddress,
    replyTo: template.replyTo,
    strict: template.strict,
    defaultLocale: template.defaultLocale,
  };
}

export function serializeTemplateVersionSummary(templateId: string, version: TemplateVersionSummary) {
  return {
    type: "TemplateVersion" as const,
    templateId,
    version: version.version,
    name: version.name,
    createdAt: version.createdAt.toISOString(),
    restoredFromVersion: version.restoredFromVersion,
    author: version.author ? { name: version.author.name, email: version.author.email } : null,
  };
}

export function serializeTemplateVersion(version: TemplateVersionRow) {
  return {
    type: "TemplateVersion" as const,
    templateId: version.templateId,
    version: version.version,
    name: version.name,
    createdAt: version.createdAt.toISOString(),
    restoredFromVersion: version.restoredFromVersion,
    rawSubject: version.subject,
    rawBodyHtml: version.bodyHtml,
    rawBodyText: version.bodyText,
    kind: version.kind,
    blocks: version.blocks,
    fromAddress: version.fromAddress,
    replyTo: version.replyTo,
    strict: version.strict,
    defaultLocale: version.defaultLocale,
    /** The locales with a row at this version (content and message tables are restored with it). */
    locales: version.locales.map((variant) => variant.locale),
  };
}

export function serializeScenario(scenario: TemplateScenario) {
  return {
    id: scenario.id,
    type: "TemplateScenario" as const,
    createdAt: scenario.createdAt.toISOString(),
    updatedAt: scenario.updatedAt.toISOString(),
    templateId: scenario.templateId,
    name: scenario.name,
    variables: scenario.variables,
  };
}

/** POST /v1/templates/validate: the draft's problems with line and column, and its rendering when it has none. */
export function serializeValidation(result: PreviewResult) {
  return {
    type: "TemplateValidation" as const,
    valid: result.problems.length === 0,
    problems: result.problems,
    missingVariables: result.missingVariables,
    rendered: result.rendered,
  };
}
