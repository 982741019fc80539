import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { parseBody } from "@/lib/foundation/validation.shared";
import { pauseSending } from "@/lib/domain/workspaces/pause-sending";
import { pauseSendingApiSchema, serializeWorkspace } from "@/lib/domain/workspaces/api";
import { readWorkspace } from "@/lib/domain/workspaces/read-workspace";

// POST /v1/workspace/pause – live sends wait as PAUSED until resumed (idempotent: the first reason stays)
export const POST = withApiKey(
  { scope: "workspace:write", body: "optional", maxBytes: 16 * 1024 },
  async ({ principal, request, body }) => {
    const { reason } = parseBody(pauseSendingApiSchema, body ?? {});
    await pauseSending({
      workspaceId: principal.workspaceId,
      reason: reason ?? undefined,
      actor: apiActor(principal, request),
    });
    const { settings, sending } = await readWorkspace(principal.workspaceId);
    return ok(serializeWorkspace(settings, sending));
  },
);
