import { z } from "zod";
import type { SendingState } from "./get-sending-state";
import type { WorkspaceSettingsView } from "./update-workspace-settings";

/** The workspace over /v1 (docs/api.md#workspace): the pause body and the Workspace resource. */
export const pauseSendingApiSchema = z.object({
  reason: z
    .string()
    .max(500)
    .nullable()
    .optional()
    .describe("Why sending is paused: shown in the dashboard and kept in the audit log."),
});

export function serializeWorkspace(settings: WorkspaceSettingsView, sending: SendingState) {
  const { effective, limits } = settings.retention;
  return {
    id: settings.id,
    type: "Workspace" as const,
    name: settings.name,
    testMode: settings.testMode,
    trackingEnabled: settings.trackingEnabled,
    defaultLocale: settings.defaultLocale,
    bodyRetentionDays: settings.bodyRetentionDays,
    metadataRetentionDays: settings.metadataRetentionDays,
    legalHold: settings.legalHold,
    legalHoldAt: settings.legalHoldAt ? settings.legalHoldAt.toISOString() : null,
    // What the purges follow: the stored values or the defaults, within the instance's ceilings (docs/retention.md).
    retention: {
      bodyDays: effective.bodyDays,
      metadataDays: effective.metadataDays,
      maxBodyDays: limits.maxBodyDays,
      maxMetadataDays: limits.maxMetadataDays,
    },
    system: settings.system,
    sending: {
      paused: sending.paused,
      reason: sending.reason,
      pausedAt: sending.pausedAt ? sending.pausedAt.toISOString() : null,
      automatic: sending.automatic,
      pausedMessages: sending.pausedMessages,
      warning: sending.warning,
      warningAt: sending.warningAt ? sending.warningAt.toISOString() : null,
    },
  };
}
