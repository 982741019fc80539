import "server-only";
import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { batches } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";

/** Tenant-scoped: an unknown id and another workspace's id give the same 404. */
export async function getBatchOrThrow(db: Executor, workspaceId: string, batchId: string) {
  const [batch] = await db
    .select()
    .from(batches)
    .where(and(eq(batches.workspaceId, workspaceId), eq(batches.id, batchId)));
  if (!batch) throw notFound(`Batch ${batchId}`, "id");
  return batch;
}

export type BatchRow = Awaited<ReturnType<typeof getBatchOrThrow>>;
