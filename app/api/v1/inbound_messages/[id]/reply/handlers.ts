import { created } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { serializeMessage } from "@/lib/domain/messages/serialize";
import { replyToInboundMessage } from "@/lib/flows/inbound/reply/reply-to-inbound";

// POST /v1/inbound_messages/:id/reply – a send answering the mail, in its thread (answers like POST /v1/email_messages)
export const POST = withApiKey<{ id: string }>(
  { scope: "emails:send", body: "json" },
  async ({ principal, params, body }) => {
    const { message } = await replyToInboundMessage({
      workspaceId: principal.workspaceId,
      inboundMessageId: params.id,
      body,
      allowedSenders: principal.allowedSenders,
    });
    return created(serializeMessage(message));
  },
);
