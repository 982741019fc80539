import "server-only";
import type { templates } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";
import type { AuditActor } from "@/lib/records/audit/actor";
import { canonicalLocaleOrThrow, withVariant, type TemplateLocaleVariantInput } from "./locale-variants.shared";
import { updateTemplate } from "./update-template";

// One variant written or removed: a template save like any other (version N+1 holding every variant, audited as
// template.update with `locales` among the changed fields), so a restore brings the variants back together.

interface LocaleSaveInput {
  workspaceId: string;
  templateId: string;
  userId: string | null;
  /** Someone else's save since this version is a CONFLICT naming baseVersionParam. */
  baseVersion?: number;
  baseVersionParam?: string;
  actor?: AuditActor;
}

/** The template's own content unchanged. */
const unchanged = (current: typeof templates.$inferSelect) => ({
  name: current.name,
  subject: current.subject,
  bodyHtml: current.bodyHtml,
  bodyText: current.bodyText,
  fromAddress: current.fromAddress,
  replyTo: current.replyTo,
  strict: current.strict,
  kind: current.kind,
  blocks: current.blocks,
});

/** Adds the variant or replaces the one of its locale (canonicalised: `fr_ca` is `fr-CA`). */
export async function putTemplateLocale(input: LocaleSaveInput & { variant: TemplateLocaleVariantInput }) {
  const locale = canonicalLocaleOrThrow(input.variant.locale);
  return updateTemplate({
    ...input,
    content: unchanged,
    locales: (current) => ({
      defaultLocale: current.defaultLocale,
      variants: withVariant(current.variants, { ...input.variant, locale }),
    }),
  });
}

/** Removes a variant (NOT_FOUND naming `locale` when the template has none of that locale). */
export async function removeTemplateLocale(input: LocaleSaveInput & { locale: string }) {
  const locale = canonicalLocaleOrThrow(input.locale);
  return updateTemplate({
    ...input,
    content: unchanged,
    locales: (current) => {
      if (!current.variants.some((variant) => variant.locale === locale)) throw notFound(`Locale ${locale}`, "locale");
      return { ...current, variants: current.variants.filter((variant) => variant.locale !== locale) };
    },
  });
}
