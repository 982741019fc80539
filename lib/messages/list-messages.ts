import "server-only";
import { and, asc, desc, eq, gt, gte, lt, lte, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages, MESSAGE_SOURCES, MESSAGE_STATUSES } from "@/db/schema";
import { invalidParameter } from "@/lib/errors";
import { parseCursorPage, parseEnum, queryParam } from "@/lib/pagination";
import { parseSingleAddress } from "./recipients.shared";

export const MESSAGES_PAGE_SIZE = 50;
const m = emailMessages;

/**
 * GET /v1/email_messages (DECISIONS.md, Listing): newest first on (created_at, id), keyset cursors in
 * both directions, filters combinable. Every query walks email_messages_workspace_created_idx (or a
 * filter's own index), so a page costs the same at any depth.
 */
export async function listMessages(workspaceId: string, params: URLSearchParams) {
  const page = parseCursorPage(params, { maxLimit: MESSAGES_PAGE_SIZE });
  const filters = parseFilters(workspaceId, params, page.createdAt);
  const db = await getDb();
  let anchor: { createdAt: Date; id: string } | undefined;
  if (page.cursor) {
    [anchor] = await db
      .select({ createdAt: m.createdAt, id: m.id })
      .from(m)
      .where(and(eq(m.workspaceId, workspaceId), eq(m.id, page.cursor.id)));
    if (!anchor) throw invalidParameter(`cursor.${page.cursor.direction}`, `No message ${page.cursor.id} to page from.`);
  }
  const older = (row: { createdAt: Date; id: string }) => sql`(${m.createdAt}, ${m.id}) < (${row.createdAt.toISOString()}::timestamptz, ${row.id})`;
  const newer = (row: { createdAt: Date; id: string }) => sql`(${m.createdAt}, ${m.id}) > (${row.createdAt.toISOString()}::timestamptz, ${row.id})`;
  const backwards = page.cursor?.direction === "before";
  const rows = await db
    .select()
    .from(m)
    .where(and(...filters, anchor ? (backwards ? newer(anchor) : older(anchor)) : undefined))
    .orderBy(...(backwards ? [asc(m.createdAt), asc(m.id)] : [desc(m.createdAt), desc(m.id)]))
    .limit(page.limit + 1);
  const more = rows.length > page.limit;
  const items = rows.slice(0, page.limit);
  if (backwards) items.reverse();
  const exists = async (condition: SQL) =>
    (await db.select({ id: m.id }).from(m).where(and(...filters, condition)).limit(1)).length > 0;
  const first = items[0];
  const last = items[items.length - 1];
  const hasOlder = backwards ? !!last && (await exists(older(last))) : more;
  const hasNewer = backwards ? more : !!first && !!anchor && (await exists(newer(first)));
  return {
    items,
    meta: {
      limit: page.limit,
      count: items.length,
      "cursor.after": hasOlder ? last.id : null,
      "cursor.before": hasNewer ? first.id : null,
    },
  };
}

function parseFilters(workspaceId: string, params: URLSearchParams, createdAt: { gt?: Date; gte?: Date; lt?: Date; lte?: Date }): SQL[] {
  const filters: SQL[] = [eq(m.workspaceId, workspaceId)];
  if (createdAt.gt) filters.push(gt(m.createdAt, createdAt.gt));
  if (createdAt.gte) filters.push(gte(m.createdAt, createdAt.gte));
  if (createdAt.lt) filters.push(lt(m.createdAt, createdAt.lt));
  if (createdAt.lte) filters.push(lte(m.createdAt, createdAt.lte));
  const status = parseEnum(queryParam(params, "status"), MESSAGE_STATUSES, "status");
  if (status) filters.push(eq(m.status, status));
  const source = parseEnum(queryParam(params, "source"), MESSAGE_SOURCES, "source");
  if (source) filters.push(eq(m.source, source));
  for (const [param, column] of [["templateId", m.templateId], ["batchId", m.batchId], ["metaId", m.metaId]] as const) {
    const value = queryParam(params, param);
    if (value === null) continue;
    if (value === "" || value.length > 255) throw invalidParameter(param, `${param} must be 1 to 255 characters.`);
    filters.push(eq(column, value));
  }
  const to = queryParam(params, "to");
  if (to !== null) {
    const address = parseSingleAddress(to, "to", "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR").address.toLowerCase();
    filters.push(sql`${m.toAddresses} @> array[${address}]::text[]`);
  }
  return filters;
}
