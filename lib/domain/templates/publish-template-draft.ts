import "server-only";
import type { AuditActor } from "@/lib/records/audit/actor";
import { checkedTemplateLocales, type TemplateLocaleVariantInput } from "./locale-variants.shared";
import type { TemplateContentInput } from "./schemas";
import { assertEveryLocaleTranslated } from "./translation-status.shared";
import { updateTemplate } from "./update-template";

// The studio's Save (docs/templates.md#the-studio): the template's own content and every locale variant as the editor
// holds them, published as one version (audited as template.update, `locales` among what changed), so the default and
// its translations never go out of step. The API writes one variant at a time and lints that one; here every variant
// is written, so every variant is linted.

export interface PublishTemplateDraftInput {
  workspaceId: string;
  templateId: string;
  userId: string | null;
  /** Someone else's save since this version is a CONFLICT naming `baseVersion`. */
  baseVersion: number;
  content: TemplateContentInput;
  /** Every variant row the template should have (the default locale's: its message table and flag only). */
  variants: TemplateLocaleVariantInput[];
  actor?: AuditActor;
}

/**
 * Refused with TEMPLATE_MISSING_TRANSLATIONS, listing each locale's missing keys, when a locale's table lacks a key
 * its content uses and the locale does not fall back for missing keys; with the Liquid error (line and column) when a
 * variant does not parse. The default locale stays the template's (PATCH /v1/templates/:id defaultLocale changes it).
 */
export async function publishTemplateDraft(input: PublishTemplateDraftInput) {
  return updateTemplate({
    workspaceId: input.workspaceId,
    templateId: input.templateId,
    userId: input.userId,
    baseVersion: input.baseVersion,
    content: input.content,
    actor: input.actor,
    locales: (current) => {
      const locales = checkedTemplateLocales({ defaultLocale: current.defaultLocale, variants: input.variants });
      const { subject, bodyHtml, bodyText } = input.content;
      assertEveryLocaleTranslated({ subject, bodyHtml, bodyText: bodyText ?? null, ...locales });
      return locales;
    },
  });
}
