import "server-only";
import { and, eq, gte, inArray, type SQL } from "drizzle-orm";
import { getDb } from "@/db/client";
import { activityLogs, apiKeys } from "@/db/schema";
import { invalidParameter } from "@/lib/foundation/errors";
import { keysetPage } from "@/db/keyset";
import { parseKeysetPageQuery, queryParam, type KeysetPageQuery } from "@/lib/foundation/pagination";

export const ACTIVITY_PAGE_SIZE = 50;

export type ActivityRow = typeof activityLogs.$inferSelect;
export type ActivityListItem = ActivityRow & { apiKeyName: string | null };

export interface ActivityFilters {
  sandboxOnly: boolean;
  errorsOnly: boolean;
}

export interface ActivityListQuery extends KeysetPageQuery {
  filters: ActivityFilters;
}

/** The Activity page's URL: `limit` ≤ 50, `cursor.after` or `cursor.before`, `sandbox` and `errors` flags. */
export function parseActivityListQuery(params: URLSearchParams): ActivityListQuery {
  const page = parseKeysetPageQuery(params, { maxLimit: ACTIVITY_PAGE_SIZE });
  return { ...page, filters: parseActivityFilters(params) };
}

/** Filters apply along the index walk; retention bounds the log, so a rare filter never scans unbounded history. */
export async function listActivity(workspaceId: string, query: ActivityListQuery) {
  const { filters, ...page } = query;
  const conditions: SQL[] = [];
  if (filters.sandboxOnly) conditions.push(eq(activityLogs.sandbox, true));
  if (filters.errorsOnly) conditions.push(gte(activityLogs.status, 400));
  const db = await getDb();
  const scope = eq(activityLogs.workspaceId, workspaceId);
  const result = await keysetPage<ActivityRow>(
    { db, table: activityLogs, createdAt: activityLogs.createdAt, id: activityLogs.id, scope, filters: conditions },
    page,
  );
  const keyIds = [...new Set(result.items.flatMap((row) => (row.apiKeyId ? [row.apiKeyId] : [])))];
  const keys = keyIds.length
    ? await db
        .select({ id: apiKeys.id, name: apiKeys.name })
        .from(apiKeys)
        .where(and(eq(apiKeys.workspaceId, workspaceId), inArray(apiKeys.id, keyIds)))
    : [];
  const nameOf = new Map(keys.map((key) => [key.id, key.name]));
  const items = result.items.map((row): ActivityListItem => ({
    ...row,
    apiKeyName: row.apiKeyId ? (nameOf.get(row.apiKeyId) ?? null) : null,
  }));
  return { items, meta: result.meta, filters };
}

function parseActivityFilters(params: URLSearchParams): ActivityFilters {
  return {
    sandboxOnly: parseFlag(queryParam(params, "sandbox"), "sandbox"),
    errorsOnly: parseFlag(queryParam(params, "errors"), "errors"),
  };
}

function parseFlag(value: string | null, param: string): boolean {
  if (value === null || value === "" || value === "0" || value === "false") return false;
  if (value === "1" || value === "true") return true;
  throw invalidParameter(param, `${param} must be 1 or true to filter, 0 or false (or absent) not to.`);
}
