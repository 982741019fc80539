import "server-only";
import { isPlainObject } from "@/lib/foundation/validation.shared";
import { getTemplateOrThrow } from "./get-template-or-throw";
import type { RenderedEmail } from "./render.shared";
import { assertVariablesObject, renderStoredTemplate } from "./render-template-by-id";
import { templateVariables } from "./variables.shared";

export interface PreviewResult {
  rendered: RenderedEmail;
  /** True when the body was `{ "variables": {…} }` and its contents were rendered (the /render shape). */
  unwrapped: boolean;
}

/**
 * The body IS the variables (docs/api.md#decided-templates). A body copied from /render (`{ "variables": {…} }`)
 * would preview empty, so unless the template reads `variables`, its contents are rendered and the caller told.
 */
export async function previewTemplateById(
  workspaceId: string,
  templateId: string,
  body: unknown,
): Promise<PreviewResult> {
  assertVariablesObject(body);
  const template = await getTemplateOrThrow(workspaceId, templateId, "id");
  const wrapped = isPlainObject(body) && Object.keys(body).length === 1 && isPlainObject(body.variables);
  const unwrapped = wrapped && !readsVariableNamed(template, "variables");
  const variables = unwrapped ? (body!.variables as Record<string, unknown>) : body;
  return { rendered: renderStoredTemplate(template, variables), unwrapped };
}

function readsVariableNamed(
  template: { subject: string; bodyHtml: string; bodyText: string | null },
  name: string,
): boolean {
  const paths = templateVariables([template.subject, template.bodyHtml, template.bodyText]);
  return paths.some((path) => path === name || path.startsWith(`${name}.`) || path.startsWith(`${name}[`));
}
