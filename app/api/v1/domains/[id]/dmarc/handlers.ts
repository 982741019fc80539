import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { dmarcSummary } from "@/lib/domain/domains/dmarc-summary";
import { getDomainOrThrow } from "@/lib/domain/domains/get-domain-or-throw";
import { now } from "@/lib/foundation/clock";

// GET /v1/domains/:id/dmarc – the last 30 days of DMARC aggregate reports: pass rate, who sends as the domain, and
// what a stricter policy would stop
export const GET = withApiKey<{ id: string }>(
  { scope: "domains:write", body: "none" },
  async ({ principal, params }) => {
    const domain = await getDomainOrThrow(principal.workspaceId, params.id);
    return ok(await dmarcSummary(domain.workspaceId, domain.id, now()));
  },
);
