import { list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { listTemplateVersions } from "@/lib/domain/templates/list-template-versions";
import { serializeTemplateVersionSummary } from "@/lib/domain/templates/serialize";

// GET /v1/templates/:id/versions – the history, newest first (who saved each, what it restored)
export const GET = withApiKey<{ id: string }>(
  { scope: "templates:read", body: "none" },
  async ({ principal, params }) => {
    const { template, versions } = await listTemplateVersions(principal.workspaceId, params.id);
    return list(
      { count: versions.length, currentVersion: template.version },
      versions.map((version) => serializeTemplateVersionSummary(template.id, version)),
    );
  },
);
