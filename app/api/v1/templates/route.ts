import { list } from "@/lib/api/respond";
import { methodNotAllowed, withApiKey } from "@/lib/api/with-api-key";
import { listTemplates, parseTemplateListQuery } from "@/lib/templates/list-templates";
import { serializeRawTemplate } from "@/lib/templates/serialize";

// GET /v1/templates – the workspace's templates (raw), newest first, keyset cursors
export const GET = withApiKey({ scope: "templates:read", body: "none" }, async ({ principal, url }) => {
  const { items, meta } = await listTemplates(principal.workspaceId, parseTemplateListQuery(url.searchParams));
  return list(meta, items.map(serializeRawTemplate));
});

const notAllowed = methodNotAllowed("GET");
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
