import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { dryRunRoute } from "@/lib/delivery/routing/dry-run";
import { dryRunSchema } from "@/lib/domain/providers/schemas";
import { assertKnownKeys } from "@/lib/foundation/validation.shared";

// POST /v1/routing_rules/dry_run – which rule and connections a message with these fields would take; nothing is sent
export const POST = withApiKey(
  { scope: "providers:write", body: "json", maxBytes: 64 * 1024 },
  async ({ principal, body }) => {
    assertKnownKeys(body, dryRunSchema);
    return ok(await dryRunRoute(principal.workspaceId, body));
  },
);
