import { list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { listBatchMessages, parseBatchMessageListQuery } from "@/lib/domain/batches/list-batch-messages";
import { serializeMessage } from "@/lib/domain/messages/serialize";

// GET /v1/batches/:id/email_messages – the batch's messages in request order, 100 a page from offset
export const GET = withApiKey<{ id: string }>(
  { scope: "emails:read", body: "none" },
  async ({ principal, params, url }) => {
    const { items, meta } = await listBatchMessages(
      principal.workspaceId,
      params.id,
      parseBatchMessageListQuery(url.searchParams),
    );
    return list(meta, items.map(serializeMessage));
  },
);
