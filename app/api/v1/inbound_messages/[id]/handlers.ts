import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { getInboundMessageView } from "@/lib/domain/inbound/get-inbound-message";
import { eraseInboundMessage } from "@/lib/domain/inbound/erase-inbound-message";

// GET /v1/inbound_messages/:id – every parsed field, the verdicts, the stripped reply and the original it answers
export const GET = withApiKey<{ id: string }>({ scope: "inbound:read", body: "none" }, async ({ principal, params }) =>
  ok(await getInboundMessageView(principal.workspaceId, params.id)),
);

// DELETE /v1/inbound_messages/:id – erase its content (subject, bodies, headers, raw bytes, attachments); audited
export const DELETE = withApiKey<{ id: string }>(
  { scope: "inbound:write", body: "none" },
  async ({ principal, request, params }) =>
    ok(await eraseInboundMessage(principal.workspaceId, params.id, apiActor(principal, request))),
);
