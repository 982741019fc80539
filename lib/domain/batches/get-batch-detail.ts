import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages, MESSAGE_STATUSES, type MessageStatus } from "@/db/schema";
import { getBatchOrThrow } from "./get-batch-or-throw";

/** Beyond the published API: one index-backed read of at most 1,000 narrow rows. */
export async function getBatchDetail(workspaceId: string, batchId: string) {
  const db = await getDb();
  const batch = await getBatchOrThrow(db, workspaceId, batchId);
  const rows = await db
    .select({ id: emailMessages.id, status: emailMessages.status })
    .from(emailMessages)
    .where(and(eq(emailMessages.workspaceId, workspaceId), eq(emailMessages.batchId, batch.id)))
    .orderBy(asc(emailMessages.batchIndex), asc(emailMessages.id));
  const counts = Object.fromEntries(MESSAGE_STATUSES.map((status) => [status, 0])) as Record<MessageStatus, number>;
  for (const row of rows) counts[row.status] += 1;
  return { batch, emailMessageIds: rows.map((row) => row.id), counts };
}
