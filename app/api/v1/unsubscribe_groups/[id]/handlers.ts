import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { serializeGroup, updateGroupApiSchema } from "@/lib/domain/contacts/api";
import { deleteUnsubscribeGroupOrThrow } from "@/lib/domain/contacts/delete-unsubscribe-group";
import { getUnsubscribeGroup } from "@/lib/domain/contacts/get-unsubscribe-group";
import { updateUnsubscribeGroupOrThrow } from "@/lib/domain/contacts/update-unsubscribe-group";
import { notFound } from "@/lib/foundation/errors";
import { parseBody } from "@/lib/foundation/validation.shared";

async function readGroup(workspaceId: string, id: string) {
  const group = await getUnsubscribeGroup(workspaceId, id);
  if (!group) throw notFound(`Unsubscribe group ${id}`, "id");
  return { ...serializeGroup(group), keyLocked: group.keyLocked };
}

// GET /v1/unsubscribe_groups/:id – with its counts and whether its key may still change
export const GET = withApiKey<{ id: string }>(
  { scope: "contacts:write", body: "none" },
  async ({ principal, params }) => ok(await readGroup(principal.workspaceId, params.id)),
);

// PATCH /v1/unsubscribe_groups/:id – rename; the key changes only while nothing uses the group
export const PATCH = withApiKey<{ id: string }>(
  { scope: "contacts:write", body: "json", maxBytes: 16 * 1024 },
  async ({ principal, request, params, body }) => {
    const input = parseBody(updateGroupApiSchema, body);
    await updateUnsubscribeGroupOrThrow(principal.workspaceId, params.id, input, apiActor(principal, request));
    return ok(await readGroup(principal.workspaceId, params.id));
  },
);

// DELETE /v1/unsubscribe_groups/:id – with its unsubscribes; 409 while a workflow sends with it
export const DELETE = withApiKey<{ id: string }>(
  { scope: "contacts:write", body: "none" },
  async ({ principal, request, params }) => {
    const group = await deleteUnsubscribeGroupOrThrow(principal.workspaceId, params.id, apiActor(principal, request));
    return ok({ id: group.id, deleted: true });
  },
);
