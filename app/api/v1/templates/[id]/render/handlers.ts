import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { renderTemplateById } from "@/lib/domain/templates/render-template-by-id";
import { serializeRendered } from "@/lib/domain/templates/serialize";
import { renderTemplateSchema } from "@/lib/domain/templates/schemas";
import { assertKnownKeys } from "@/lib/foundation/validation.shared";

// POST /v1/templates/:id/render – { variables } → the processed subject, HTML and text
export const POST = withApiKey<{ id: string }>(
  { scope: "templates:read", body: "optional" },
  async ({ principal, params, body }) => {
    assertKnownKeys(body, renderTemplateSchema);
    const variables = body === undefined ? undefined : (body as { variables?: unknown } | null)?.variables;
    return ok(serializeRendered(await renderTemplateById(principal.workspaceId, params.id, variables)));
  },
);
