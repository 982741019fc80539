import { list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { listMessages } from "@/lib/domain/messages/list-messages";
import { parseMessageListQuery } from "@/lib/domain/messages/message-list-query";
import { serializeMessage } from "@/lib/domain/messages/serialize";
import { sendEmailHandler } from "../_handlers/send-email-handler";

// POST /v1/email_messages – send an email, with a template or raw content
export const POST = sendEmailHandler({ sandbox: false });

// GET /v1/email_messages – newest first, keyset cursors, createdAt and other filters
export const GET = withApiKey({ scope: "emails:read", body: "none" }, async ({ principal, url }) => {
  const { items, meta } = await listMessages(principal.workspaceId, parseMessageListQuery(url.searchParams));
  return list(meta, items.map(serializeMessage));
});
