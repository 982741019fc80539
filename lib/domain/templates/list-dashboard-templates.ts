import "server-only";
import { and, asc, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templates, users } from "@/db/schema";
import { invalidParameter } from "@/lib/foundation/errors";

export const DASHBOARD_TEMPLATES_PAGE_SIZE = 50;

export interface DashboardTemplatesRequest {
  query?: string;
  /** Page towards older edits, after this template id; or towards newer ones, before it. */
  after?: string;
  before?: string;
  limit?: number;
}

/** Most recently edited first, keyset on (updated_at, id); a workspace has at most thousands, so the substring search stays cheap. */
export async function listDashboardTemplates(workspaceId: string, request: DashboardTemplatesRequest = {}) {
  const limit = Math.min(Math.max(Math.trunc(request.limit ?? DASHBOARD_TEMPLATES_PAGE_SIZE), 1), 200);
  const query = request.query?.trim().slice(0, 200) ?? "";
  const db = await getDb();
  const scope = and(eq(templates.workspaceId, workspaceId), query ? matches(query) : undefined);
  const direction = request.before ? "before" : request.after ? "after" : null;
  let anchor: SQL | undefined;
  if (direction) {
    const anchorId = (request.before ?? request.after)!;
    const [row] = await db
      .select({ updatedAt: templates.updatedAt, id: templates.id })
      .from(templates)
      .where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, anchorId)));
    if (!row) throw invalidParameter(direction, `No template ${anchorId} to page from: it may have been deleted.`);
    const key = sql`(${row.updatedAt.toISOString()}::timestamptz, ${row.id})`;
    anchor =
      direction === "before"
        ? sql`(${templates.updatedAt}, ${templates.id}) > ${key}`
        : sql`(${templates.updatedAt}, ${templates.id}) < ${key}`;
  }
  const backwards = direction === "before";
  const rows = await db
    .select({
      id: templates.id,
      name: templates.name,
      subject: templates.subject,
      kind: templates.kind,
      version: templates.version,
      updatedAt: templates.updatedAt,
      editorName: users.name,
      editorEmail: users.email,
      // The same containment test as findWorkflowsUsingTemplate, correlated per row.
      usedByWorkflows: sql<number>`(select count(*)::int from workflows w where w.workspace_id = ${templates.workspaceId} and w.steps @> jsonb_build_array(jsonb_build_object('templateId', ${templates.id})))`,
    })
    .from(templates)
    .leftJoin(users, eq(users.id, templates.updatedByUserId))
    .where(and(scope, anchor))
    .orderBy(
      ...(backwards ? [asc(templates.updatedAt), asc(templates.id)] : [desc(templates.updatedAt), desc(templates.id)]),
    )
    .limit(limit + 1);
  const more = rows.length > limit;
  const items = rows.slice(0, limit).map(({ editorName, editorEmail, usedByWorkflows, ...row }) => ({
    ...row,
    usedByWorkflows: Number(usedByWorkflows),
    editor: editorEmail ? { name: editorName, email: editorEmail } : null,
  }));
  if (backwards) items.reverse();
  // A page reached by a cursor always has a way back; deletions in between at worst show an empty page.
  const hasOlder = backwards ? direction !== null : more;
  const hasNewer = backwards ? more : direction !== null;
  return {
    items,
    nextAfter: hasOlder && items.length > 0 ? items[items.length - 1].id : null,
    previousBefore: hasNewer && items.length > 0 ? items[0].id : null,
  };
}

export type DashboardTemplate = Awaited<ReturnType<typeof listDashboardTemplates>>["items"][number];

/** `%`, `_` and `\` in the query are literal characters, not patterns. */
function matches(query: string) {
  const pattern = `%${query.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  return or(ilike(templates.name, pattern), ilike(templates.subject, pattern));
}
