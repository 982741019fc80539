import { apiAdminActor } from "@/lib/entry/api/api-admin-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { serializeWorkspace } from "@/lib/domain/workspaces/api";
import { updateWorkspaceSettingsSchema, type UpdateWorkspaceSettingsInput } from "@/lib/domain/workspaces/schemas";
import { assertKnownKeys } from "@/lib/foundation/validation.shared";
import { readWorkspace } from "@/lib/domain/workspaces/read-workspace";
import { updateWorkspaceSettings } from "@/lib/domain/workspaces/update-workspace-settings";

// GET /v1/workspace – the key's own workspace: name, test mode, tracking, sending state
export const GET = withApiKey({ scope: "workspace:write", body: "none" }, async ({ principal }) => {
  const { settings, sending } = await readWorkspace(principal.workspaceId);
  return ok(serializeWorkspace(settings, sending));
});

// PATCH /v1/workspace – any of name, testMode, trackingEnabled, defaultLocale, retention windows, legalHold (only what changed is audited)
export const PATCH = withApiKey(
  { scope: "workspace:write", body: "json", maxBytes: 16 * 1024 },
  async ({ principal, request, body }) => {
    // The use case parses the body itself (the dashboard's schema): a bad field is a 400 naming it.
    assertKnownKeys(body, updateWorkspaceSettingsSchema);
    await updateWorkspaceSettings(apiAdminActor(principal, request), body as UpdateWorkspaceSettingsInput);
    const { settings, sending } = await readWorkspace(principal.workspaceId);
    return ok(serializeWorkspace(settings, sending));
  },
);
