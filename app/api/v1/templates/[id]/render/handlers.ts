import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { renderTemplateByIdInLocale } from "@/lib/domain/templates/render-template-by-id";
import { serializeRendered } from "@/lib/domain/templates/serialize";
import { renderTemplateSchema } from "@/lib/domain/templates/schemas";
import { assertKnownKeys } from "@/lib/foundation/validation.shared";

// POST /v1/templates/:id/render – { variables, locale } → the processed subject, HTML and text, and the locale used
export const POST = withApiKey<{ id: string }>(
  { scope: "templates:read", body: "optional" },
  async ({ principal, params, body }) => {
    assertKnownKeys(body, renderTemplateSchema);
    const given = body as { variables?: unknown; locale?: unknown } | null | undefined;
    const result = await renderTemplateByIdInLocale(principal.workspaceId, params.id, given?.variables, given?.locale);
    return ok(serializeRendered(result.rendered, new Date(), result), { "content-language": result.usedLocale });
  },
);
