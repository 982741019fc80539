import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { cancelBatch } from "@/lib/domain/messages/cancel-message";

// POST /v1/batches/:id/cancel – cancels every message of the batch still waiting; lists the others with their state
export const POST = withApiKey<{ id: string }>(
  { scope: "emails:send", body: "none" },
  async ({ principal, params }) => {
    const result = await cancelBatch({
      workspaceId: principal.workspaceId,
      batchId: params.id,
      by: `through the API (key ${principal.apiKeyId})`,
    });
    return ok({
      type: "BatchCancellation" as const,
      batchId: result.batchId,
      cancelledEmailMessageIds: result.cancelled,
      notCancelled: result.notCancelled,
    });
  },
);
