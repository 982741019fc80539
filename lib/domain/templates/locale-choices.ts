import "server-only";
import type { LocaleContext } from "./render.shared";
import type { ResolvedTemplateVariant } from "./template-variant.shared";

// Which variant /render uses for a requested locale, and its message tables, per template version: a version fixes
// every variant, so nothing needs invalidating; the render path reads them once per version and request, not per
// render (the cost of a render does not grow with the number of variants).

export const LOCALE_CHOICES_LIMIT = 1_000;

interface LocaleChoiceEntry {
  /** The version the rows were read at (a save landing mid-read is filed under the version it really is). */
  version: number;
  localeContext: LocaleContext;
  /** The compiled-version cache's key of the content: undefined for the template's own (default locale). */
  variantKey: string | undefined;
}

const choices = new Map<string, LocaleChoiceEntry>();

export async function localeChoice(
  templateId: string,
  version: number,
  requested: string | null,
  load: () => Promise<{ template: { version: number; defaultLocale: string }; resolved: ResolvedTemplateVariant }>,
): Promise<LocaleChoiceEntry> {
  const key = `${templateId}@${version}/${requested ?? ""}`;
  const hit = choices.get(key);
  if (hit) {
    choices.delete(key);
    choices.set(key, hit);
    return hit;
  }
  const { template, resolved } = await load();
  const entry: LocaleChoiceEntry = {
    version: template.version,
    localeContext: resolved.localeContext,
    variantKey: resolved.usedLocale === template.defaultLocale ? undefined : resolved.usedLocale,
  };
  if (choices.size >= LOCALE_CHOICES_LIMIT) choices.delete(choices.keys().next().value!);
  choices.set(`${templateId}@${template.version}/${requested ?? ""}`, entry);
  return entry;
}
