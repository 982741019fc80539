import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { serializeContactDetail, setUnsubscribesApiSchema } from "@/lib/domain/contacts/api";
import { getContactDetail } from "@/lib/domain/contacts/get-contact-detail";
import { setContactUnsubscribes } from "@/lib/domain/contacts/set-contact-unsubscribes";
import { notFound } from "@/lib/foundation/errors";
import { parseBody } from "@/lib/foundation/validation.shared";

// PUT /v1/contacts/:id/unsubscribes – exactly these groups; [] subscribes the contact to every group again
export const PUT = withApiKey<{ id: string }>(
  { scope: "contacts:write", body: "json", maxBytes: 64 * 1024 },
  async ({ principal, request, params, body }) => {
    const { groupIds } = parseBody(setUnsubscribesApiSchema, body);
    await setContactUnsubscribes(principal.workspaceId, params.id, groupIds, apiActor(principal, request));
    const detail = await getContactDetail(principal.workspaceId, params.id);
    if (!detail) throw notFound(`Contact ${params.id}`, "id");
    return ok(serializeContactDetail(detail));
  },
);
