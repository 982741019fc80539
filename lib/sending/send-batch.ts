import "server-only";
import { getDb } from "@/db/client";
import { batches } from "@/db/schema/index";
import { newId } from "@/lib/foundation/ids";
import { queueTransaction } from "@/lib/records/queue/queue";
import { acceptMessages } from "@/lib/sending/accept-messages";
import { claimIdempotencyKey, hashRequestBody } from "@/lib/sending/idempotency";
import { getWorkspaceOrThrow } from "@/lib/domain/workspaces/get-workspace-or-throw";
import { claimElementKeys, earlierElementIds } from "./claim-element-keys";
import { getBatchOrThrow, type BatchRow } from "@/lib/domain/batches/get-batch-or-throw";
import { prepareBatch } from "./prepare-batch";

export interface SendBatchResult {
  batch: BatchRow;
  /** Request order; a replayed element's position holds the earlier message's id. */
  emailMessageIds: string[];
  /** True when the whole body matched an earlier batch: nothing new was created. */
  replayed: boolean;
}

/** The metaId of a whole batch's idempotency key (its own scope keeps it apart from element keys). */
const WHOLE_BATCH = "(whole batch)";

/**
 * POST /v1/batches and its sandbox twin (docs/api.md#decided-batches, #decided-idempotency). When every element
 * carries a metaId, the batch itself is keyed by its whole body: the same batch again returns the earlier one.
 */
export async function sendBatch(input: {
  workspaceId: string;
  sandbox: boolean;
  body: unknown;
  allowedSenders?: readonly string[];
}): Promise<SendBatchResult> {
  const db = await getDb();
  const workspace = await getWorkspaceOrThrow(db, input.workspaceId);
  const elements = await prepareBatch(db, input.body, {
    workspace,
    sandbox: input.sandbox,
    allowedSenders: input.allowedSenders,
  });
  const scope = { workspaceId: workspace.id, scope: input.sandbox ? "batches:sandbox" : "batches:live" };
  const batchId = newId("batch");
  return queueTransaction(async (tx) => {
    if (elements.every((element) => element.metaId)) {
      const earlier = await claimIdempotencyKey(tx, {
        workspaceId: workspace.id,
        scope: `${scope.scope}:request`,
        metaId: WHOLE_BATCH,
        requestHash: hashRequestBody(input.body),
        resourceId: batchId,
      });
      if (earlier) {
        const batch = await getBatchOrThrow(tx, workspace.id, earlier);
        return { batch, emailMessageIds: await earlierElementIds(tx, scope, elements), replayed: true };
      }
    }
    const { ids, create } = await claimElementKeys(tx, scope, elements);
    const now = new Date();
    const [batch] = await tx
      .insert(batches)
      .values({
        id: batchId,
        workspaceId: workspace.id,
        sandbox: input.sandbox,
        count: elements.length,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await acceptMessages(
      tx,
      create.map((element) => element.prepared),
      { batchId, batchIndexes: create.map((element) => element.index) },
    );
    return { batch, emailMessageIds: ids, replayed: false };
  });
}
