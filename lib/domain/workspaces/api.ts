import { z } from "zod";
import type { SendingState } from "./get-sending-state";
import type { WorkspaceSettings } from "./update-workspace-settings";

/** The workspace over /v1 (docs/api.md#workspace): the pause body and the Workspace resource. */
export const pauseSendingApiSchema = z.object({
  reason: z
    .string()
    .max(500)
    .nullable()
    .optional()
    .describe("Why sending is paused: shown in the dashboard and kept in the audit log."),
});

export function serializeWorkspace(settings: WorkspaceSettings & { system: boolean }, sending: SendingState) {
  return {
    id: settings.id,
    type: "Workspace" as const,
    name: settings.name,
    testMode: settings.testMode,
    trackingEnabled: settings.trackingEnabled,
    defaultLocale: settings.defaultLocale,
    system: settings.system,
    sending: {
      paused: sending.paused,
      reason: sending.reason,
      pausedAt: sending.pausedAt ? sending.pausedAt.toISOString() : null,
      automatic: sending.automatic,
      pausedMessages: sending.pausedMessages,
    },
  };
}
