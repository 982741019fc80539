import "server-only";
import { findWorkspaceOrThrow } from "@/lib/domain/workspaces/find-workspace-or-throw";
import {
  getWorkspaceSettings,
  updateWorkspaceSettings,
  type WorkspaceSettingsView,
} from "@/lib/domain/workspaces/update-workspace-settings";
import { emit, leadingArgument, onOff, optionalString, UsageError, type CliCommand, type FlagValues } from "../io";

/** What `--json` prints: the stored windows (null: the default), the effective ones, the ceilings and the hold. */
function serializeRetention(settings: WorkspaceSettingsView) {
  const { effective, limits } = settings.retention;
  return {
    id: settings.id,
    name: settings.name,
    bodyRetentionDays: settings.bodyRetentionDays,
    metadataRetentionDays: settings.metadataRetentionDays,
    legalHold: settings.legalHold,
    legalHoldAt: settings.legalHoldAt?.toISOString() ?? null,
    retention: {
      bodyDays: effective.bodyDays,
      metadataDays: effective.metadataDays,
      maxBodyDays: limits.maxBodyDays,
      maxMetadataDays: limits.maxMetadataDays,
    },
  };
}

/** `--body-days 30`, `--body-days default` (null: the instance default); anything else is the use case's 400. */
function days(flags: FlagValues, name: string): number | null | undefined {
  const value = optionalString(flags, name);
  if (value === undefined) return undefined;
  if (value === "default") return null;
  if (!/^\d+$/.test(value))
    throw new UsageError(`--${name} must be a whole number of days or "default" (got "${value}").`);
  return Number(value);
}

export const workspaceRetentionCommands: Record<string, CliCommand> = {
  "workspace retention": {
    usage:
      "workspace retention ID|NAME [--body-days N|default] [--metadata-days N|default] [--legal-hold on|off] [--json]",
    summary:
      "Show or change how long a workspace keeps bodies and metadata, and its legal hold (docs/retention.md). Audited as the CLI.",
    database: "migrated",
    async run(args, context) {
      const { value, flags } = leadingArgument(args, "the workspace (ID or NAME)", {
        "body-days": { type: "string" },
        "metadata-days": { type: "string" },
        "legal-hold": { type: "string" },
      });
      const target = await findWorkspaceOrThrow(value);
      const changes = {
        bodyRetentionDays: days(flags, "body-days"),
        metadataRetentionDays: days(flags, "metadata-days"),
        legalHold: onOff(flags, "legal-hold"),
      };
      const changing = Object.values(changes).some((change) => change !== undefined);
      // The operator acts with an owner's rights, under the same rules as the dashboard and the API.
      if (changing) await updateWorkspaceSettings({ userId: "cli", workspaceId: target.id, role: "OWNER" }, changes);
      const settings = await getWorkspaceSettings(target.id);
      const { effective } = settings.retention;
      emit(context, serializeRetention(settings), [
        `${changing ? "Updated" : "Retention of"} workspace "${settings.name}" (${settings.id}): bodies ${effective.bodyDays} days${settings.bodyRetentionDays === null ? " (default)" : ""}, metadata ${effective.metadataDays} days${settings.metadataRetentionDays === null ? " (default)" : ""}.`,
        settings.legalHold
          ? `Legal hold on since ${settings.legalHoldAt?.toISOString()}: nothing of this workspace is purged.`
          : "No legal hold.",
      ]);
    },
  },
};
