import { apiActor } from "@/lib/entry/api/api-actor";
import { created, list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { addDomain } from "@/lib/domain/domains/add-domain";
import { describeDomain } from "@/lib/domain/domains/describe-domain";
import { listDomains } from "@/lib/domain/domains/list-domains";
import { addDomainApiSchema } from "@/lib/domain/domains/schemas";
import { serializeDomain, serializeDomainSummary } from "@/lib/domain/domains/serialize";
import { env } from "@/lib/foundation/env";
import { parseBody } from "@/lib/foundation/validation.shared";

// GET /v1/domains – the workspace's sending domains by name (a handful: one page)
export const GET = withApiKey({ scope: "domains:write", body: "none" }, async ({ principal }) => {
  const domains = await listDomains(principal.workspaceId);
  return list({ count: domains.length }, domains.map(serializeDomainSummary));
});

// POST /v1/domains – add a domain; the answer carries the DNS records to publish
export const POST = withApiKey(
  { scope: "domains:write", body: "json", maxBytes: 16 * 1024 },
  async ({ principal, request, body }) => {
    const { name } = parseBody(addDomainApiSchema, body);
    // DOMAIN_VERIFICATION=off: nothing to look up, so the domain counts as verified at once (as in the dashboard).
    const domain = await addDomain({
      workspaceId: principal.workspaceId,
      name,
      verified: env().DOMAIN_VERIFICATION === "off",
      actor: apiActor(principal, request),
    });
    return created(serializeDomain(describeDomain(domain)));
  },
);
