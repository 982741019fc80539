import "server-only";
import { isPlainObject } from "@/lib/foundation/validation.shared";
import { getDb } from "@/db/client";
import { canonicalLocaleOrThrow } from "./locale-variants.shared";
import { loadTemplateVariant } from "./template-locale-rows";
import type { RenderedEmail } from "./render.shared";
import { assertVariablesObject, renderStoredTemplate } from "./render-template-by-id";
import { templateVariables } from "./variables.shared";

export interface PreviewResult {
  rendered: RenderedEmail;
  /** True when the body was `{ "variables": {…} }` and its contents were rendered (the /render shape). */
  unwrapped: boolean;
  /** The locale of the chain rendered (a variant, or the default) and the request canonicalised (null: none). */
  usedLocale: string;
  requestedLocale: string | null;
}

/**
 * The body IS the variables (docs/api.md#decided-templates). A body copied from /render (`{ "variables": {…} }`)
 * would preview empty, so unless the template reads `variables`, its contents are rendered and the caller told.
 * `locale` picks the variant along the fallback chain as a send does (malformed: 400 naming `locale`).
 */
export async function previewTemplateById(
  workspaceId: string,
  templateId: string,
  body: unknown,
  locale?: string | null,
): Promise<PreviewResult> {
  assertVariablesObject(body);
  const requested = locale === undefined || locale === null ? null : canonicalLocaleOrThrow(locale);
  const { template, resolved } = await loadTemplateVariant(await getDb(), workspaceId, templateId, requested, "id");
  const wrapped = isPlainObject(body) && Object.keys(body).length === 1 && isPlainObject(body.variables);
  const unwrapped = wrapped && !readsVariableNamed(resolved.source, "variables");
  const variables = unwrapped ? (body!.variables as Record<string, unknown>) : body;
  const source = { ...resolved.source, strict: template.strict };
  return {
    rendered: renderStoredTemplate(source, variables, resolved.localeContext),
    unwrapped,
    usedLocale: resolved.usedLocale,
    requestedLocale: requested,
  };
}

function readsVariableNamed(
  template: { subject: string; bodyHtml: string; bodyText: string | null },
  name: string,
): boolean {
  const paths = templateVariables([template.subject, template.bodyHtml, template.bodyText]);
  return paths.some((path) => path === name || path.startsWith(`${name}.`) || path.startsWith(`${name}[`));
}
