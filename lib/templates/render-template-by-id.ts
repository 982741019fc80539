import "server-only";
import { env } from "@/lib/env";
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
  // A send with a group gets its recipient's own link; a preview has no recipient, so it shows a
  // stand-in (which answers "not a valid link") instead of an empty href or, in strict mode, an error.
  const data = { unsubscribeUrl: `${env().APP_URL}/u/preview`, ...(variables as Record<string, unknown> | null | undefined) };
  return renderTemplate(template, data, { strict: template.strict });
}
