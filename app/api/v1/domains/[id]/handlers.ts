import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { deleteDomainOrThrow } from "@/lib/domain/domains/delete-domain";
import { describeDomain } from "@/lib/domain/domains/describe-domain";
import { getDomainOrThrow } from "@/lib/domain/domains/get-domain-or-throw";
import { serializeDomain } from "@/lib/domain/domains/serialize";

// GET /v1/domains/:id – the records to publish, each with its state as of the last check
export const GET = withApiKey<{ id: string }>({ scope: "domains:write", body: "none" }, async ({ principal, params }) =>
  ok(serializeDomain(describeDomain(await getDomainOrThrow(principal.workspaceId, params.id)))),
);

// DELETE /v1/domains/:id – sends from it are refused from then on
export const DELETE = withApiKey<{ id: string }>(
  { scope: "domains:write", body: "none" },
  async ({ principal, request, params }) => {
    const removed = await deleteDomainOrThrow(principal.workspaceId, params.id, apiActor(principal, request));
    return ok({ id: removed.id, deleted: true });
  },
);
