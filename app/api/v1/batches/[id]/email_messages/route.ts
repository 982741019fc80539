import { list } from "@/lib/entry/api/respond";
import { methodNotAllowed, withApiKey } from "@/lib/entry/api/with-api-key";
import { listBatchMessages, parseBatchMessageListQuery } from "@/lib/domain/batches/list-batch-messages";
import { serializeMessage } from "@/lib/domain/messages/serialize";

// GET /v1/batches/:id/email_messages – the batch's messages in request order, 100 a page from offset
export const GET = withApiKey<{ id: string }>({ scope: "emails:read", body: "none" }, async ({ principal, params, url }) => {
  const { items, meta } = await listBatchMessages(principal.workspaceId, params.id, parseBatchMessageListQuery(url.searchParams));
  return list(meta, items.map(serializeMessage));
});

const notAllowed = methodNotAllowed("GET");
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
