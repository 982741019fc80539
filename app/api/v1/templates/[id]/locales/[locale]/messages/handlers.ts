import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { getTemplateLocaleOrThrow } from "@/lib/domain/templates/list-template-locales";
import { checkedMessageTable, messageTableFile } from "@/lib/domain/templates/message-table.shared";
import { importTemplateMessages } from "@/lib/domain/templates/save-template-locale";
import { serializeTemplateLocale } from "@/lib/domain/templates/serialize-locales";
import { baseVersionOf } from "@/lib/domain/templates/template-locale-request";
import { templateEtag } from "@/lib/domain/templates/template-request";

type Params = { id: string; locale: string };

// GET /v1/templates/:id/locales/:locale/messages – the locale's own table as a translators' file: flat keys → ICU texts
export const GET = withApiKey<Params>({ scope: "templates:read", body: "none" }, async ({ principal, params }) => {
  const { template, variant } = await getTemplateLocaleOrThrow(principal.workspaceId, params.id, params.locale);
  const file = messageTableFile(template, variant);
  return new Response(file.text, {
    status: 200,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${file.name}"`,
      "cache-control": "no-store",
      etag: templateEtag(template),
    },
  });
});

// PUT /v1/templates/:id/locales/:locale/messages – the body IS the table (as exported); replaces the locale's table
// as the next version, linted like a variant save
export const PUT = withApiKey<Params>(
  { scope: "templates:write", body: "json", maxBytes: 2 * 1024 * 1024 },
  async ({ principal, request, params, body }) => {
    const saved = await importTemplateMessages({
      workspaceId: principal.workspaceId,
      templateId: params.id,
      locale: params.locale,
      messages: checkedMessageTable(body),
      baseVersion: baseVersionOf(undefined, request.headers.get("if-match")),
      baseVersionParam: "If-Match",
      userId: null,
      actor: apiActor(principal, request),
    });
    const { template, variant, missingKeys } = await getTemplateLocaleOrThrow(
      principal.workspaceId,
      saved.id,
      params.locale,
    );
    return ok(serializeTemplateLocale(template, variant, missingKeys), { etag: templateEtag(template) });
  },
);
