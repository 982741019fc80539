import "server-only";
import { env } from "@/lib/env";
import { invalidParameter } from "@/lib/errors";
import { isPlainObject } from "@/lib/validation.shared";
import { getTemplateOrThrow } from "./get-template-or-throw";
import { renderTemplate, type RenderedEmail, type TemplateSource } from "./render.shared";

/**
 * POST /v1/templates/:id/render and /preview: the stored template through the one renderer, with the
 * template's own strict setting, exactly as a send would render it.
 */
export async function renderTemplateById(workspaceId: string, templateId: string, variables: unknown): Promise<RenderedEmail> {
  assertVariablesObject(variables);
  const template = await getTemplateOrThrow(workspaceId, templateId, undefined, "id");
  return renderStoredTemplate(template, variables);
}

export function assertVariablesObject(variables: unknown): asserts variables is Record<string, unknown> | null | undefined {
  if (variables !== undefined && variables !== null && !isPlainObject(variables)) {
    throw invalidParameter("variables", "variables must be a JSON object.");
  }
}

/** A loaded template rendered as /render and /preview do (variables already checked). */
export function renderStoredTemplate(template: TemplateSource & { strict: boolean }, variables: Record<string, unknown> | null | undefined): RenderedEmail {
  // A send with a group gets its recipient's own link; a preview has no recipient, so it shows a
  // stand-in (which answers "not a valid link") instead of an empty href or, in strict mode, an error.
  const data = { unsubscribeUrl: `${env().APP_URL}/u/preview`, ...variables };
  return renderTemplate(template, data, { strict: template.strict });
}
