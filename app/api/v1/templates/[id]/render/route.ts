import { ok } from "@/lib/api/respond";
import { methodNotAllowed, withApiKey } from "@/lib/api/with-api-key";
import { renderTemplateById } from "@/lib/templates/render-template-by-id";
import { serializeRendered } from "@/lib/templates/serialize";

// POST /v1/templates/:id/render – { variables } → the processed subject, HTML and text
export const POST = withApiKey<{ id: string }>({ scope: "templates:read", body: "optional" }, async ({ principal, params, body }) => {
  const variables = body === undefined ? undefined : (body as { variables?: unknown } | null)?.variables;
  return ok(serializeRendered(await renderTemplateById(principal.workspaceId, params.id, variables)));
});

const notAllowed = methodNotAllowed("POST");
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
