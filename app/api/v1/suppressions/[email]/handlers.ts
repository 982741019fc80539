import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { removeSuppressionApiSchema, serializeSuppression } from "@/lib/domain/suppressions/api";
import { removeSuppressionOrThrow } from "@/lib/domain/suppressions/remove-suppression";
import { parseBody } from "@/lib/foundation/validation.shared";

// DELETE /v1/suppressions/:email – later sends go to the address again; a complaint needs { force: true, reason }
export const DELETE = withApiKey<{ email: string }>(
  { scope: "suppressions:write", body: "optional", maxBytes: 16 * 1024 },
  async ({ principal, request, params, body }) => {
    const { force, reason } = parseBody(removeSuppressionApiSchema, body ?? {});
    const removed = await removeSuppressionOrThrow(
      principal.workspaceId,
      decodeParam(params.email),
      apiActor(principal, request),
      { force, why: reason },
    );
    return ok({ ...serializeSuppression(removed), deleted: true });
  },
);

/** `ann%40example.org` as well as `ann@example.org` (a client may encode the @ or not). */
function decodeParam(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
