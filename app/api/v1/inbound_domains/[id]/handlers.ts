import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { deleteInboundDomain } from "@/lib/domain/inbound/delete-inbound-domain";
import { getInboundDomainOrThrow } from "@/lib/domain/inbound/get-inbound-domain";
import { serializeInboundDomain } from "@/lib/domain/inbound/serialize-inbound-domain";

// GET /v1/inbound_domains/:id – the MX record to publish, with its state as of the last check
export const GET = withApiKey<{ id: string }>({ scope: "inbound:read", body: "none" }, async ({ principal, params }) =>
  ok(serializeInboundDomain(await getInboundDomainOrThrow(principal.workspaceId, params.id))),
);

// DELETE /v1/inbound_domains/:id – with its routes; mail to it is refused at RCPT TO from then on
export const DELETE = withApiKey<{ id: string }>(
  { scope: "inbound:write", body: "none" },
  async ({ principal, request, params }) => {
    const removed = await deleteInboundDomain(principal.workspaceId, params.id, apiActor(principal, request));
    return ok({ id: removed.id, deleted: true });
  },
);
