import { created } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { serializeMessage } from "@/lib/domain/messages/serialize";
import { replyToThread } from "@/lib/flows/inbound/reply/reply-to-inbound";

// POST /v1/threads/:id/reply – answers the newest mail received in the thread
export const POST = withApiKey<{ id: string }>(
  { scope: "emails:send", body: "json" },
  async ({ principal, params, body }) => {
    const { message } = await replyToThread({
      workspaceId: principal.workspaceId,
      threadId: params.id,
      body,
      allowedSenders: principal.allowedSenders,
    });
    return created(serializeMessage(message));
  },
);
