import "server-only";
import { invalidParameter } from "@/lib/errors";
import { isPlainObject } from "@/lib/validation.shared";
import { getTemplateOrThrow } from "./get-template-or-throw";
import { renderTemplate, type RenderedEmail } from "./render.shared";

/**
 * POST /v1/templates/:id/render and /preview: the stored template through the one renderer, with the
 * template's own strict setting, exactly as a send would render it.
 */
export async function renderTemplateById(workspaceId: string, templateId: string, variables: unknown): Promise<RenderedEmail> {
  if (variables !== undefined && variables !== null && !isPlainObject(variables)) {
    throw invalidParameter("variables", "variables must be a JSON object.");
  }
  const template = await getTemplateOrThrow(workspaceId, templateId, undefined, "id");
  return renderTemplate(template, (variables ?? {}) as Record<string, unknown>, { strict: template.strict });
}
