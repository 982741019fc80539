import "server-only";
import { compileTemplate, type CompiledTemplate, type TemplateSource } from "./render.shared";

/** Enough for every template a busy workspace renders; the oldest entry goes first beyond it. */
export const COMPILED_VERSIONS_LIMIT = 1_000;
const compiled = new Map<string, CompiledTemplate>();

/**
 * Parsed fields by template id and version: every save makes a new version, so nothing needs invalidating, across
 * processes too. A save that lands mid-load is filed under the version it really is. `variant` keys a locale
 * variant's content (its used locale, resolveTemplateVariant): a variant save is a new version too.
 */
export async function compiledVersion(
  templateId: string,
  version: number,
  load: () => Promise<TemplateSource & { version: number }>,
  variant?: string,
): Promise<CompiledTemplate> {
  const hit = compiled.get(key(templateId, version, variant));
  if (hit) {
    compiled.delete(key(templateId, version, variant));
    compiled.set(key(templateId, version, variant), hit);
    return hit;
  }
  const template = await load();
  const entry = compileTemplate(template);
  if (compiled.size >= COMPILED_VERSIONS_LIMIT) compiled.delete(compiled.keys().next().value!);
  compiled.set(key(templateId, template.version, variant), entry);
  return entry;
}

/** How many versions this process holds (tests). */
export function compiledVersionsCached(templateId: string): number[] {
  const prefix = `${templateId}@`;
  return [...compiled.keys()]
    .filter((entry) => entry.startsWith(prefix))
    .map((entry) => Number(entry.slice(prefix.length).split("/")[0]));
}

const key = (templateId: string, version: number, variant?: string) =>
  variant ? `${templateId}@${version}/${variant}` : `${templateId}@${version}`;
