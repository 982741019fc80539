import "server-only";
import { and, count, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { batches, emailMessages, MESSAGE_STATUSES, type MessageStatus } from "@/db/schema";
import { keysetPage } from "@/db/keyset";
import { parseKeysetPageQuery, type KeysetPageQuery } from "@/lib/foundation/pagination";
import type { BatchRow } from "./get-batch-or-throw";

export const BATCHES_PAGE_SIZE = 25;

export type StatusCounts = Record<MessageStatus, number>;
export type BatchListItem = BatchRow & { counts: StatusCounts };
export type BatchListQuery = KeysetPageQuery;

/** The Batches page's URL: `limit` up to 25, `cursor.after` or `cursor.before`. */
export function parseBatchListQuery(params: URLSearchParams): BatchListQuery {
  return parseKeysetPageQuery(params, { maxLimit: BATCHES_PAGE_SIZE });
}

export function emptyStatusCounts(): StatusCounts {
  return Object.fromEntries(MESSAGE_STATUSES.map((status) => [status, 0])) as StatusCounts;
}

/** Newest first, keyset pages; status counts are one grouped read of the page's batches. */
export async function listBatches(workspaceId: string, page: BatchListQuery) {
  const db = await getDb();
  const scope = eq(batches.workspaceId, workspaceId);
  const result = await keysetPage<BatchRow>(
    { db, table: batches, createdAt: batches.createdAt, id: batches.id, scope, filters: [] },
    page,
  );
  const ids = result.items.map((batch) => batch.id);
  const rows = ids.length
    ? await db
        .select({ batchId: emailMessages.batchId, status: emailMessages.status, total: count() })
        .from(emailMessages)
        .where(and(eq(emailMessages.workspaceId, workspaceId), inArray(emailMessages.batchId, ids)))
        .groupBy(emailMessages.batchId, emailMessages.status)
    : [];
  const counts = new Map(ids.map((id) => [id, emptyStatusCounts()]));
  for (const row of rows) counts.get(row.batchId!)![row.status] += Number(row.total);
  return {
    items: result.items.map((batch): BatchListItem => ({ ...batch, counts: counts.get(batch.id)! })),
    meta: result.meta,
  };
}
