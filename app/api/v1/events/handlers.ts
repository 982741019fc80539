import { list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { listEventFeed, parseFeedQuery } from "@/lib/flows/webhooks/list-event-feed";

// GET /v1/events?after=&types=&limit=&wait= – the workspace's event feed, the webhook payloads in recorded order
export const GET = withApiKey({ scope: "emails:read", body: "none" }, async ({ principal, url, request }) => {
  const query = parseFeedQuery(url.searchParams);
  const { events, nextCursor, hasMore } = await listEventFeed(principal.workspaceId, query, request.signal);
  return list({ limit: query.limit, nextCursor, hasMore }, events);
});
