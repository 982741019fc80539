import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { serializeInboundDomain } from "@/lib/domain/inbound/serialize-inbound-domain";
import { verifyInboundDomain } from "@/lib/domain/inbound/verify-inbound-domain";

// POST /v1/inbound_domains/:id/verify – looks the MX up now and stores the outcome
export const POST = withApiKey<{ id: string }>(
  { scope: "inbound:write", body: "none" },
  async ({ principal, request, params }) => {
    const { domain, check } = await verifyInboundDomain(principal.workspaceId, params.id, apiActor(principal, request));
    return ok(serializeInboundDomain(domain, check));
  },
);
