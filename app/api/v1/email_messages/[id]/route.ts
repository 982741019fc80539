import { ok } from "@/lib/api/respond";
import { methodNotAllowed, withApiKey } from "@/lib/api/with-api-key";
import { getMessageOrThrow } from "@/lib/messages/get-message-or-throw";
import { serializeMessage } from "@/lib/messages/serialize";

// GET /v1/email_messages/:id – one message with its delivery timestamps
export const GET = withApiKey<{ id: string }>({ scope: "emails:read", body: "none" }, async ({ principal, params }) =>
  ok(serializeMessage(await getMessageOrThrow(principal.workspaceId, params.id))),
);

const notAllowed = methodNotAllowed("GET");
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
