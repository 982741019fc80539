import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { withDefaultLocale } from "@/lib/domain/templates/default-locale.shared";
import { deleteTemplate } from "@/lib/domain/templates/delete-template";
import { getTemplateOrThrow } from "@/lib/domain/templates/get-template-or-throw";
import { serializeRawTemplate } from "@/lib/domain/templates/serialize";
import { parseTemplateChanges, templateEtag } from "@/lib/domain/templates/template-request";
import { updateTemplate } from "@/lib/domain/templates/update-template";

type Params = { id: string };

// GET /v1/templates/:id – the template with its version; ETag is the version (for If-Match)
export const GET = withApiKey<Params>({ scope: "templates:read", body: "none" }, async ({ principal, params }) => {
  const template = await getTemplateOrThrow(principal.workspaceId, params.id, "id");
  return ok(serializeRawTemplate(template), { etag: templateEtag(template) });
});

// PATCH /v1/templates/:id – any fields (defaultLocale too), saved as the next version; a stale `version`/If-Match is 409
export const PATCH = withApiKey<Params>(
  { scope: "templates:write", body: "json", maxBytes: 2 * 1024 * 1024 },
  async ({ principal, request, params, body }) => {
    const changes = parseTemplateChanges(body, request.headers.get("if-match"));
    const template = await updateTemplate({
      workspaceId: principal.workspaceId,
      templateId: params.id,
      content: changes.content,
      baseVersion: changes.baseVersion,
      baseVersionParam: "version",
      locales:
        changes.defaultLocale === undefined
          ? undefined
          : (current) => withDefaultLocale(current, changes.defaultLocale),
      userId: null,
      actor: apiActor(principal, request),
    });
    return ok(serializeRawTemplate(template), { etag: templateEtag(template) });
  },
);

// DELETE /v1/templates/:id – with its versions and scenarios; 409 naming the workflows that send it
export const DELETE = withApiKey<Params>(
  { scope: "templates:write", body: "none" },
  async ({ principal, request, params }) => {
    await deleteTemplate({
      workspaceId: principal.workspaceId,
      templateId: params.id,
      actor: apiActor(principal, request),
    });
    return ok({ id: params.id, deleted: true });
  },
);
