import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { canonicalLocaleOrThrow } from "@/lib/domain/templates/locale-variants.shared";
import { getTemplateLocaleOrThrow } from "@/lib/domain/templates/list-template-locales";
import { putTemplateLocale, removeTemplateLocale } from "@/lib/domain/templates/save-template-locale";
import { serializeTemplateLocale } from "@/lib/domain/templates/serialize-locales";
import { baseVersionOf, parsePutTemplateLocale } from "@/lib/domain/templates/template-locale-request";
import { templateEtag } from "@/lib/domain/templates/template-request";

type Params = { id: string; locale: string };

// GET /v1/templates/:id/locales/:locale – one locale (the tag canonicalised) with its content and message table
export const GET = withApiKey<Params>({ scope: "templates:read", body: "none" }, async ({ principal, params }) => {
  const { template, variant, missingKeys } = await getTemplateLocaleOrThrow(
    principal.workspaceId,
    params.id,
    params.locale,
  );
  return ok(serializeTemplateLocale(template, variant, missingKeys), { etag: templateEtag(template) });
});

// PUT /v1/templates/:id/locales/:locale – the whole variant, saved as the template's next version; a table lacking a
// key the content uses is 422 unless fallsBackForMissingKeys
export const PUT = withApiKey<Params>(
  { scope: "templates:write", body: "json", maxBytes: 2 * 1024 * 1024 },
  async ({ principal, request, params, body }) => {
    const { variant, baseVersion } = parsePutTemplateLocale(body, request.headers.get("if-match"));
    const saved = await putTemplateLocale({
      workspaceId: principal.workspaceId,
      templateId: params.id,
      variant: { ...variant, locale: params.locale },
      baseVersion,
      baseVersionParam: "version",
      userId: null,
      actor: apiActor(principal, request),
    });
    const {
      template,
      variant: row,
      missingKeys,
    } = await getTemplateLocaleOrThrow(principal.workspaceId, saved.id, params.locale);
    return ok(serializeTemplateLocale(template, row, missingKeys), { etag: templateEtag(template) });
  },
);

// DELETE /v1/templates/:id/locales/:locale – the variant removed (a new version); the default locale's: 409
export const DELETE = withApiKey<Params>(
  { scope: "templates:write", body: "none" },
  async ({ principal, request, params }) => {
    const template = await removeTemplateLocale({
      workspaceId: principal.workspaceId,
      templateId: params.id,
      locale: params.locale,
      baseVersion: baseVersionOf(undefined, request.headers.get("if-match")),
      baseVersionParam: "If-Match",
      userId: null,
      actor: apiActor(principal, request),
    });
    return ok(
      { templateId: template.id, locale: canonicalLocaleOrThrow(params.locale), deleted: true },
      { etag: templateEtag(template) },
    );
  },
);
