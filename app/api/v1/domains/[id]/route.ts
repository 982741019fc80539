import { apiActor } from "@/lib/api/api-actor";
import { ok } from "@/lib/api/respond";
import { methodNotAllowed, withApiKey } from "@/lib/api/with-api-key";
import { deleteDomainOrThrow } from "@/lib/domains/delete-domain";
import { describeDomain } from "@/lib/domains/describe-domain";
import { getDomainOrThrow } from "@/lib/domains/get-domain-or-throw";
import { serializeDomain } from "@/lib/domains/serialize";

// GET /v1/domains/:id – the records to publish, each with its state as of the last check
export const GET = withApiKey<{ id: string }>({ scope: "domains:write", body: "none" }, async ({ principal, params }) =>
  ok(serializeDomain(describeDomain(await getDomainOrThrow(principal.workspaceId, params.id)))),
);

// DELETE /v1/domains/:id – sends from it are refused from then on
export const DELETE = withApiKey<{ id: string }>({ scope: "domains:write", body: "none" }, async ({ principal, request, params }) => {
  const removed = await deleteDomainOrThrow(principal.workspaceId, params.id, apiActor(principal, request));
  return ok({ id: removed.id, deleted: true });
});

const notAllowed = methodNotAllowed("GET, DELETE");
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
