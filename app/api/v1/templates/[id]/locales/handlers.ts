import { list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { listTemplateLocales } from "@/lib/domain/templates/list-template-locales";
import { serializeTemplateLocaleSummary } from "@/lib/domain/templates/serialize-locales";

// GET /v1/templates/:id/locales – the default locale, then each variant: what it overrides, its keys, what it lacks
export const GET = withApiKey<{ id: string }>(
  { scope: "templates:read", body: "none" },
  async ({ principal, params }) => {
    const { template, locales } = await listTemplateLocales(principal.workspaceId, params.id);
    return list(
      { count: locales.length, defaultLocale: template.defaultLocale, templateVersion: template.version },
      locales.map(({ variant, missingKeys }) => serializeTemplateLocaleSummary(template, variant, missingKeys)),
    );
  },
);
