import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { describeDomain } from "@/lib/domain/domains/describe-domain";
import { serializeDomain } from "@/lib/domain/domains/serialize";
import { verifyDomain } from "@/lib/domain/domains/verify-domain";
import { checkDomainRequirements } from "@/lib/domain/domains/requirements/check-requirements";

// POST /v1/domains/:id/verify – the dashboard's DNS check: looks the records up now and stores the outcome, and
// checks the sender requirements
export const POST = withApiKey<{ id: string }>(
  { scope: "domains:write", body: "none" },
  async ({ principal, request, params }) => {
    const { domain, checks } = await verifyDomain(principal.workspaceId, params.id, apiActor(principal, request));
    return ok(serializeDomain(describeDomain(domain, checks), await checkDomainRequirements(domain)));
  },
);
