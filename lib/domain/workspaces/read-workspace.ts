import "server-only";
import { getSendingState } from "./get-sending-state";
import { getWorkspaceSettings } from "./update-workspace-settings";

/** The workspace as GET /v1/workspace shows it: settings and sending state, read together. */
export async function readWorkspace(workspaceId: string) {
  const [settings, sending] = await Promise.all([getWorkspaceSettings(workspaceId), getSendingState(workspaceId)]);
  return { settings, sending };
}
