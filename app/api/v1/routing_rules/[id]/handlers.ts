import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { deleteRule } from "@/lib/domain/providers/delete-rule";
import { getRuleOrThrow } from "@/lib/domain/providers/get-rule";
import { updateRuleSchema } from "@/lib/domain/providers/schemas";
import { serializeRule } from "@/lib/domain/providers/serialize-rule";
import { updateRule } from "@/lib/domain/providers/update-rule";
import { assertKnownKeys } from "@/lib/foundation/validation.shared";

// GET /v1/routing_rules/:id
export const GET = withApiKey<{ id: string }>(
  { scope: "providers:write", body: "none" },
  async ({ principal, params }) => ok(serializeRule(await getRuleOrThrow(principal.workspaceId, params.id))),
);

// PATCH /v1/routing_rules/:id – any of the fields, checked as on creation
export const PATCH = withApiKey<{ id: string }>(
  { scope: "providers:write", body: "json", maxBytes: 64 * 1024 },
  async ({ principal, request, params, body }) => {
    assertKnownKeys(body, updateRuleSchema);
    return ok(serializeRule(await updateRule(principal.workspaceId, params.id, body, apiActor(principal, request))));
  },
);

// DELETE /v1/routing_rules/:id – the messages it matched fall to the next rule
export const DELETE = withApiKey<{ id: string }>(
  { scope: "providers:write", body: "none" },
  async ({ principal, request, params }) => {
    const removed = await deleteRule(principal.workspaceId, params.id, apiActor(principal, request));
    return ok({ id: removed.id, deleted: true });
  },
);
