import { list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { parseInboundListQuery } from "@/lib/domain/inbound/inbound-list-query";
import { listInboundMessages } from "@/lib/domain/inbound/list-inbound-messages";

// GET /v1/inbound_messages – newest first, keyset cursors; filters by route, address, date, verdicts and status
export const GET = withApiKey({ scope: "inbound:read", body: "none" }, async ({ principal, url }) => {
  const { items, meta } = await listInboundMessages(principal.workspaceId, parseInboundListQuery(url.searchParams));
  return list(meta, items);
});
