import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { restoreTemplateVersion } from "@/lib/domain/templates/restore-template-version";
import { serializeRawTemplate } from "@/lib/domain/templates/serialize";
import { assertKnownKeys, NO_FIELDS } from "@/lib/foundation/validation.shared";
import { templateEtag, versionNumber, versionOfIfMatch } from "@/lib/domain/templates/template-request";

// POST /v1/templates/:id/versions/:version/restore – that version's content saved as the next version;
// with If-Match, refused (409) when the template moved on since
export const POST = withApiKey<{ id: string; version: string }>(
  { scope: "templates:write", body: "optional", maxBytes: 64 * 1024 },
  async ({ principal, request, params, body }) => {
    assertKnownKeys(body, NO_FIELDS);
    const ifMatch = request.headers.get("if-match");
    const template = await restoreTemplateVersion({
      workspaceId: principal.workspaceId,
      templateId: params.id,
      version: versionNumber(params.version),
      baseVersion: ifMatch === null ? undefined : versionOfIfMatch(ifMatch),
      baseVersionParam: "If-Match",
      userId: null,
      actor: apiActor(principal, request),
    });
    return ok(serializeRawTemplate(template), { etag: templateEtag(template) });
  },
);
