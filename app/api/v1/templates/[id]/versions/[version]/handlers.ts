import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { getTemplateVersionOrThrow } from "@/lib/domain/templates/get-template-version-or-throw";
import { serializeTemplateVersion } from "@/lib/domain/templates/serialize";
import { versionNumber } from "@/lib/domain/templates/template-request";

// GET /v1/templates/:id/versions/:version – one saved version with its content
export const GET = withApiKey<{ id: string; version: string }>(
  { scope: "templates:read", body: "none" },
  async ({ principal, params }) =>
    ok(
      serializeTemplateVersion(
        await getTemplateVersionOrThrow(principal.workspaceId, params.id, versionNumber(params.version)),
      ),
    ),
);
