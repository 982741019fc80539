import { apiActor } from "@/lib/entry/api/api-actor";
import { created, list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { addSuppression } from "@/lib/domain/suppressions/add-suppression";
import {
  addSuppressionApiSchema,
  parseSuppressionListQuery,
  serializeSuppression,
  suppressionListMeta,
} from "@/lib/domain/suppressions/api";
import { listSuppressionsPage } from "@/lib/domain/suppressions/list-suppressions-page";
import { parseBody } from "@/lib/foundation/validation.shared";

// GET /v1/suppressions – alphabetical by address; filters reason, since, prefix; cursors after/before (an address)
export const GET = withApiKey({ scope: "suppressions:write", body: "none" }, async ({ principal, url }) => {
  const query = parseSuppressionListQuery(url.searchParams);
  const page = await listSuppressionsPage(principal.workspaceId, query);
  return list(suppressionListMeta(page, query.limit), page.items.map(serializeSuppression));
});

// POST /v1/suppressions – suppress an address (an upsert: an address already listed keeps its row)
export const POST = withApiKey(
  { scope: "suppressions:write", body: "json", maxBytes: 16 * 1024 },
  async ({ principal, request, body }) => {
    const input = parseBody(addSuppressionApiSchema, body);
    const row = await addSuppression({
      workspaceId: principal.workspaceId,
      email: input.email,
      reason: input.reason ?? "MANUAL",
      detail: input.detail ?? null,
      actor: apiActor(principal, request),
    });
    return created(serializeSuppression(row));
  },
);
