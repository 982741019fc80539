import { list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { listMessageEvents } from "@/lib/domain/messages/list-message-events";
import { serializeEvent } from "@/lib/domain/messages/serialize";

// GET /v1/email_messages/:id/events – the delivery timeline, newest first, 50 a page
export const GET = withApiKey<{ id: string }>(
  { scope: "emails:read", body: "none" },
  async ({ principal, params, url }) => {
    const result = await listMessageEvents(principal.workspaceId, params.id, url.searchParams.get("page"));
    return list({ count: result.total, page: result.page, limit: result.limit }, result.events.map(serializeEvent));
  },
);
