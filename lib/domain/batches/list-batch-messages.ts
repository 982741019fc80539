import "server-only";
import { and, asc, count, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { invalidParameter } from "@/lib/foundation/errors";
import { queryParam } from "@/lib/foundation/pagination";
import { getBatchOrThrow } from "./get-batch-or-throw";

export const BATCH_MESSAGES_PAGE_SIZE = 100;

export interface BatchMessageListQuery {
  offset: number;
}

/** GET /v1/batches/:id/email_messages' query string (and the batch page's URL): `offset`. */
export function parseBatchMessageListQuery(params: URLSearchParams): BatchMessageListQuery {
  return { offset: parseOffset(queryParam(params, "offset")) };
}

/** Request order, 100 a page (docs/api.md#decided-batches): OFFSET as the API mandates, cheap as a batch holds at most 1,000. */
export async function listBatchMessages(workspaceId: string, batchId: string, { offset }: BatchMessageListQuery) {
  const db = await getDb();
  const batch = await getBatchOrThrow(db, workspaceId, batchId);
  const where = and(eq(emailMessages.workspaceId, workspaceId), eq(emailMessages.batchId, batch.id));
  const [{ total }] = await db.select({ total: count() }).from(emailMessages).where(where);
  const items = await db
    .select()
    .from(emailMessages)
    .where(where)
    .orderBy(asc(emailMessages.batchIndex), asc(emailMessages.id))
    .limit(BATCH_MESSAGES_PAGE_SIZE)
    .offset(offset);
  return { items, meta: { offset, limit: BATCH_MESSAGES_PAGE_SIZE, count: Number(total) } };
}

function parseOffset(value: string | null): number {
  if (value === null || value === "") return 0;
  if (!/^\d{1,6}$/.test(value))
    throw invalidParameter("offset", "offset must be a whole number from 0 (the position in the batch to start from).");
  return Number(value);
}
