import { list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { getDomainOrThrow } from "@/lib/domain/domains/get-domain-or-throw";
import { requirementHistory } from "@/lib/domain/domains/requirements/requirement-history";
import { now } from "@/lib/foundation/clock";

// GET /v1/domains/:id/requirements – the domain's sender-requirement checks of the last 30 days, newest first
export const GET = withApiKey<{ id: string }>(
  { scope: "domains:write", body: "none" },
  async ({ principal, params }) => {
    const domain = await getDomainOrThrow(principal.workspaceId, params.id);
    const checks = await requirementHistory(domain.workspaceId, domain.id, { now: now(), days: 30 });
    return list({ count: checks.length }, checks);
  },
);
