import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { getInboundMessageView } from "@/lib/domain/inbound/get-inbound-message";

// GET /v1/inbound_messages/:id – every parsed field, the verdicts, the stripped reply and the original it answers
export const GET = withApiKey<{ id: string }>({ scope: "inbound:read", body: "none" }, async ({ principal, params }) =>
  ok(await getInboundMessageView(principal.workspaceId, params.id)),
);
