import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templates } from "@/db/schema";
import { keysetPage } from "@/lib/keyset";
import { parseCursorPage } from "@/lib/pagination";

export const TEMPLATES_PAGE_SIZE = 100;

/** GET /v1/templates (beyond the published API; docs/api.md#decided-templates): the workspace's templates, newest first, keyset cursors like messages. */
export async function listTemplates(workspaceId: string, params: URLSearchParams) {
  const page = parseCursorPage(params, { maxLimit: TEMPLATES_PAGE_SIZE });
  const t = templates;
  const query = { db: await getDb(), table: t, createdAt: t.createdAt, id: t.id, scope: eq(t.workspaceId, workspaceId), filters: [] };
  return keysetPage<typeof t.$inferSelect>(query, page);
}
