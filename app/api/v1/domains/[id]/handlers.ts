import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { deleteDomainOrThrow } from "@/lib/domain/domains/delete-domain";
import { describeDomain } from "@/lib/domain/domains/describe-domain";
import { getDomainOrThrow } from "@/lib/domain/domains/get-domain-or-throw";
import { serializeDomain } from "@/lib/domain/domains/serialize";
import { latestRequirementCheck } from "@/lib/domain/domains/requirements/requirement-history";

// GET /v1/domains/:id – the records to publish, each with its state as of the last check, and the newest
// sender-requirement check
export const GET = withApiKey<{ id: string }>(
  { scope: "domains:write", body: "none" },
  async ({ principal, params }) => {
    const domain = await getDomainOrThrow(principal.workspaceId, params.id);
    return ok(serializeDomain(describeDomain(domain), await latestRequirementCheck(domain.workspaceId, domain.id)));
  },
);

// DELETE /v1/domains/:id – sends from it are refused from then on
export const DELETE = withApiKey<{ id: string }>(
  { scope: "domains:write", body: "none" },
  async ({ principal, request, params }) => {
    const removed = await deleteDomainOrThrow(principal.workspaceId, params.id, apiActor(principal, request));
    return ok({ id: removed.id, deleted: true });
  },
);
