import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { getTemplateOrThrow } from "@/lib/domain/templates/get-template-or-throw";
import { serializeRawTemplate } from "@/lib/domain/templates/serialize";

// GET /v1/templates/:id/raw – the Liquid source, unexpanded
export const GET = withApiKey<{ id: string }>(
  { scope: "templates:read", body: "none" },
  async ({ principal, params }) =>
    ok(serializeRawTemplate(await getTemplateOrThrow(principal.workspaceId, params.id, "id"))),
);
