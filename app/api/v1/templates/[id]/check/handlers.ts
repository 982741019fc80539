import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { checkTemplateContentSchema } from "@/lib/domain/templates/schemas";
import { checkTemplateContent } from "@/lib/flows/content/check-template-content";
import { assertKnownKeys, parseBody } from "@/lib/foundation/validation.shared";

// POST /v1/templates/:id/check – { variables, locale, groupMail } → the content checks of the current version
export const POST = withApiKey<{ id: string }>(
  { scope: "templates:read", body: "optional" },
  async ({ principal, params, body }) => {
    assertKnownKeys(body, checkTemplateContentSchema);
    const given = parseBody(checkTemplateContentSchema, body ?? {});
    return ok(await checkTemplateContent({ workspaceId: principal.workspaceId, templateId: params.id, ...given }));
  },
);
