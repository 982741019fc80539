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
 * POST /v1/templates/:id/preview (docs/api.md#decided-templates): the body IS the variables, as the
 * real client sends them. A caller who copied the /render shape (`{ "variables": {…} }`) would
 * otherwise silently get a preview with every variable empty; so when that is the body's only key,
 * its value an object, and the template reads no variable named `variables` (then the body could
 * mean exactly what it says), its contents are rendered instead and the caller is told.
 */
export async function previewTemplateById(workspaceId: string, templateId: string, body: unknown): Promise<PreviewResult> {
  assertVariablesObject(body);
  const template = await getTemplateOrThrow(workspaceId, templateId, undefined, "id");
  const wrapped = isPlainObject(body) && Object.keys(body).length === 1 && isPlainObject(body.variables);
  const unwrapped = wrapped && !readsVariableNamed(template, "variables");
  const variables = unwrapped ? (body!.variables as Record<string, unknown>) : body;
  return { rendered: renderStoredTemplate(template, variables), unwrapped };
}

function readsVariableNamed(template: { subject: string; bodyHtml: string; bodyText: string | null }, name: string): boolean {
  const paths = templateVariables([template.subject, template.bodyHtml, template.bodyText]);
  return paths.some((path) => path === name || path.startsWith(`${name}.`) || path.startsWith(`${name}[`));
}
