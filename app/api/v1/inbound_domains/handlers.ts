import { apiActor } from "@/lib/entry/api/api-actor";
import { created, list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { addInboundDomain } from "@/lib/domain/inbound/add-inbound-domain";
import { listInboundDomains } from "@/lib/domain/inbound/list-inbound-domains";
import { addInboundDomainSchema } from "@/lib/domain/inbound/schemas";
import { serializeInboundDomain } from "@/lib/domain/inbound/serialize-inbound-domain";
import { parseBody } from "@/lib/foundation/validation.shared";

// GET /v1/inbound_domains – the workspace's inbound domains by name (a handful: one page)
export const GET = withApiKey({ scope: "inbound:read", body: "none" }, async ({ principal }) => {
  const domains = await listInboundDomains(principal.workspaceId);
  return list(
    { count: domains.length },
    domains.map((domain) => serializeInboundDomain(domain)),
  );
});

// POST /v1/inbound_domains – add a domain to receive mail for; the answer carries the MX record to publish
export const POST = withApiKey(
  { scope: "inbound:write", body: "json", maxBytes: 16 * 1024 },
  async ({ principal, request, body }) => {
    const { name } = parseBody(addInboundDomainSchema, body);
    const domain = await addInboundDomain({
      workspaceId: principal.workspaceId,
      name,
      actor: apiActor(principal, request),
    });
    return created(serializeInboundDomain(domain));
  },
);
