import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { serializeWorkspace } from "@/lib/domain/workspaces/api";
import { readWorkspace } from "@/lib/domain/workspaces/read-workspace";
import { resumeSending } from "@/lib/domain/workspaces/resume-sending";

// POST /v1/workspace/resume – the paused messages go on to delivery, oldest first
export const POST = withApiKey({ scope: "workspace:write", body: "none" }, async ({ principal, request }) => {
  const { resumed } = await resumeSending({ workspaceId: principal.workspaceId, actor: apiActor(principal, request) });
  const { settings, sending } = await readWorkspace(principal.workspaceId);
  return ok({ ...serializeWorkspace(settings, sending), resumed });
});
