import { list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { parseThreadListQuery } from "@/lib/domain/inbound/inbound-list-query";
import { listThreads } from "@/lib/domain/inbound/list-threads";

// GET /v1/threads – the conversation with the newest mail first, keyset cursors; filters by participant, sent message and date
export const GET = withApiKey({ scope: "inbound:read", body: "none" }, async ({ principal, url }) => {
  const { items, meta } = await listThreads(principal.workspaceId, parseThreadListQuery(url.searchParams));
  return list(meta, items);
});
