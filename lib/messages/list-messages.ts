import "server-only";
import { eq, gt, gte, lt, lte, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages, MESSAGE_SOURCES, MESSAGE_STATUSES } from "@/db/schema";
import { invalidParameter } from "@/lib/errors";
import { keysetPage } from "@/lib/keyset";
import { parseCursorPage, parseEnum, queryParam } from "@/lib/pagination";
import { parseSingleAddress } from "@/lib/addresses/recipients.shared";

export const MESSAGES_PAGE_SIZE = 50;
const m = emailMessages;

/**
 * GET /v1/email_messages (docs/api.md#decided-listing-messages): newest first on (created_at, id), keyset cursors in
 * both directions, filters combinable. Every query walks email_messages_workspace_created_idx (or a
 * filter's own index), so a page costs the same at any depth.
 */
export async function listMessages(workspaceId: string, params: URLSearchParams, options: { sandbox?: boolean } = {}) {
  const page = parseCursorPage(params, { maxLimit: MESSAGES_PAGE_SIZE });
  const filters = parseFilters(params, page.createdAt);
  // The dashboard's live/sandbox filter (not an API parameter: there `source` says it).
  if (options.sandbox !== undefined) filters.push(eq(m.sandbox, options.sandbox));
  const query = { db: await getDb(), table: m, createdAt: m.createdAt, id: m.id, scope: eq(m.workspaceId, workspaceId), filters };
  return keysetPage<typeof m.$inferSelect>(query, page);
}

function parseFilters(params: URLSearchParams, createdAt: { gt?: Date; gte?: Date; lt?: Date; lte?: Date }): SQL[] {
  const filters: SQL[] = [];
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
