import type { MessageStatus } from "@/db/schema";
import type { BatchRow } from "./get-batch-or-throw";

/** The public Batch (docs/api.md#decided-batches): ids in request order, ISO timestamps, never a raw row. */
export function serializeBatch(batch: BatchRow, emailMessageIds: string[]) {
  return {
    id: batch.id,
    type: "Batch" as const,
    createdAt: batch.createdAt.toISOString(),
    updatedAt: batch.updatedAt.toISOString(),
    sandbox: batch.sandbox,
    count: batch.count,
    emailMessageIds,
  };
}

/** GET /v1/batches/:id: the Batch with its messages counted by status (every status, zeros included). */
export function serializeBatchDetail(detail: {
  batch: BatchRow;
  emailMessageIds: string[];
  counts: Record<MessageStatus, number>;
}) {
  return { ...serializeBatch(detail.batch, detail.emailMessageIds), counts: detail.counts };
}
