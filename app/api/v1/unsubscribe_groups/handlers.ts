import { apiActor } from "@/lib/entry/api/api-actor";
import { created, list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { createGroupApiSchema, newGroupSummary, serializeGroup } from "@/lib/domain/contacts/api";
import { createUnsubscribeGroup } from "@/lib/domain/contacts/create-unsubscribe-group";
import { listUnsubscribeGroups } from "@/lib/domain/contacts/list-unsubscribe-groups";
import { parseBody } from "@/lib/foundation/validation.shared";

// GET /v1/unsubscribe_groups – by name, with unsubscribe and (capped) message counts
export const GET = withApiKey({ scope: "contacts:write", body: "none" }, async ({ principal }) => {
  const groups = await listUnsubscribeGroups(principal.workspaceId);
  return list({ count: groups.length }, groups.map(serializeGroup));
});

// POST /v1/unsubscribe_groups – a group sends name by groupId or groupKey
export const POST = withApiKey(
  { scope: "contacts:write", body: "json", maxBytes: 16 * 1024 },
  async ({ principal, request, body }) => {
    const input = parseBody(createGroupApiSchema, body);
    const group = await createUnsubscribeGroup({
      workspaceId: principal.workspaceId,
      ...input,
      actor: apiActor(principal, request),
    });
    return created(serializeGroup(newGroupSummary(group)));
  },
);
