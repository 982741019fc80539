import { apiActor } from "@/lib/entry/api/api-actor";
import { created, list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { createTemplate } from "@/lib/domain/templates/create-template";
import { listTemplates, parseTemplateListQuery } from "@/lib/domain/templates/list-templates";
import { serializeRawTemplate } from "@/lib/domain/templates/serialize";
import { parseNewTemplate, templateEtag } from "@/lib/domain/templates/template-request";

// GET /v1/templates – the workspace's templates (raw), newest first, keyset cursors
export const GET = withApiKey({ scope: "templates:read", body: "none" }, async ({ principal, url }) => {
  const { items, meta } = await listTemplates(principal.workspaceId, parseTemplateListQuery(url.searchParams));
  return list(meta, items.map(serializeRawTemplate));
});

// POST /v1/templates – a new template as version 1 (the CLI's `template create`)
export const POST = withApiKey(
  { scope: "templates:write", body: "json", maxBytes: 2 * 1024 * 1024 },
  async ({ principal, request, body }) => {
    const content = parseNewTemplate(body);
    const template = await createTemplate({
      ...content,
      workspaceId: principal.workspaceId,
      actor: apiActor(principal, request),
    });
    return { ...created(serializeRawTemplate(template)), headers: { etag: templateEtag(template) } };
  },
);
