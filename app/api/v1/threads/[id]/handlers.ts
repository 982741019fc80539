import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { getThreadView } from "@/lib/domain/inbound/get-thread";

// GET /v1/threads/:id – a conversation's received and sent messages, oldest first
export const GET = withApiKey<{ id: string }>({ scope: "inbound:read", body: "none" }, async ({ principal, params }) =>
  ok(await getThreadView(principal.workspaceId, params.id)),
);
