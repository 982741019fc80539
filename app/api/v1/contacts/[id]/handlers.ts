import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { serializeContactDetail } from "@/lib/domain/contacts/api";
import { getContactDetail } from "@/lib/domain/contacts/get-contact-detail";
import { notFound } from "@/lib/foundation/errors";

// GET /v1/contacts/:id – with every group (and whether it left it), its newest messages and its suppression
export const GET = withApiKey<{ id: string }>(
  { scope: "contacts:write", body: "none" },
  async ({ principal, params }) => {
    const detail = await getContactDetail(principal.workspaceId, params.id);
    if (!detail) throw notFound(`Contact ${params.id}`, "id");
    return ok(serializeContactDetail(detail));
  },
);
