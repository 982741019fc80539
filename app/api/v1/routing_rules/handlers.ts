import { apiActor } from "@/lib/entry/api/api-actor";
import { created, list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { createRule } from "@/lib/domain/providers/create-rule";
import { listRules } from "@/lib/domain/providers/get-rule";
import { createRuleSchema } from "@/lib/domain/providers/schemas";
import { serializeRule } from "@/lib/domain/providers/serialize-rule";
import { assertKnownKeys } from "@/lib/foundation/validation.shared";

// GET /v1/routing_rules – in the order they are tried (at most 100: one page)
export const GET = withApiKey({ scope: "providers:write", body: "none" }, async ({ principal }) => {
  const rules = await listRules(principal.workspaceId);
  return list({ count: rules.length }, rules.map(serializeRule));
});

// POST /v1/routing_rules – a match → connections (the primary, then the fallbacks); after the last rule by default
export const POST = withApiKey(
  { scope: "providers:write", body: "json", maxBytes: 64 * 1024 },
  async ({ principal, request, body }) => {
    assertKnownKeys(body, createRuleSchema);
    const rule = await createRule(principal.workspaceId, body, apiActor(principal, request));
    return created(serializeRule(rule));
  },
);
