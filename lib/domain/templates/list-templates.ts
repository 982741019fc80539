import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templates } from "@/db/schema";
import { keysetPage } from "@/db/keyset";
import { parseKeysetPageQuery, type KeysetPageQuery } from "@/lib/foundation/pagination";

export const TEMPLATES_PAGE_SIZE = 100;

export type TemplateListQuery = KeysetPageQuery;

/** GET /v1/templates' query string: `limit` up to 100, `cursor.after` or `cursor.before`. */
export function parseTemplateListQuery(params: URLSearchParams): TemplateListQuery {
  return parseKeysetPageQuery(params, { maxLimit: TEMPLATES_PAGE_SIZE });
}

/** Beyond the published API (docs/api.md#decided-templates). */
export async function listTemplates(workspaceId: string, page: TemplateListQuery) {
  const t = templates;
  const query = {
    db: await getDb(),
    table: t,
    createdAt: t.createdAt,
    id: t.id,
    scope: eq(t.workspaceId, workspaceId),
    filters: [],
  };
  return keysetPage<typeof t.$inferSelect>(query, page);
}
