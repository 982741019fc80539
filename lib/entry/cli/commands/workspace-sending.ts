import "server-only";
import { AUDIT_CLI_ACTOR } from "@/lib/records/audit/actor";
import type { workspaces } from "@/db/schema";
import { discardPausedMessages } from "@/lib/domain/workspaces/discard-paused-messages";
import { findWorkspaceOrThrow } from "@/lib/domain/workspaces/find-workspace-or-throw";
import { pauseSending } from "@/lib/domain/workspaces/pause-sending";
import { resumeSending } from "@/lib/domain/workspaces/resume-sending";
import { emit, leadingArgument, optionalString, shellQuote, type CliCommand } from "../io";

type Workspace = typeof workspaces.$inferSelect;

export function serializeWorkspaceState(workspace: Workspace) {
  return {
    id: workspace.id,
    name: workspace.name,
    testMode: workspace.testMode,
    trackingEnabled: workspace.trackingEnabled,
    sendingPaused: workspace.sendingPaused,
    pausedReason: workspace.pausedReason,
    pausedAt: workspace.pausedAt?.toISOString() ?? null,
    pausedAutomatically: workspace.pausedAutomatically,
  };
}

const WORKSPACE = "the workspace (ID or NAME)";

export const workspaceSendingCommands: Record<string, CliCommand> = {
  "workspace pause": {
    usage: "workspace pause ID|NAME [--reason TEXT] [--json]",
    summary: "Pause live sending: accepted messages wait as PAUSED until `workspace resume`. Sandbox is unaffected.",
    database: "migrated",
    async run(args, context) {
      const { value, flags } = leadingArgument(args, WORKSPACE, { reason: { type: "string" } });
      const before = await findWorkspaceOrThrow(value);
      await pauseSending({ workspaceId: before.id, reason: optionalString(flags, "reason"), actor: AUDIT_CLI_ACTOR });
      const after = await findWorkspaceOrThrow(before.id);
      const lines = before.sendingPaused
        ? [
            `Sending of "${after.name}" was already paused (since ${after.pausedAt?.toISOString()}): ${after.pausedReason}`,
          ]
        : [
            `Paused sending of "${after.name}" (${after.id}): ${after.pausedReason}`,
            `Live messages now wait as PAUSED. Resume: npm run cli -- workspace resume ${shellQuote(after.id)}`,
          ];
      emit(context, serializeWorkspaceState(after), lines);
    },
  },
  "workspace resume": {
    usage: "workspace resume ID|NAME [--json]",
    summary: "Resume live sending: the workspace's PAUSED messages go on to delivery (oldest first).",
    database: "migrated",
    async run(args, context) {
      const { value } = leadingArgument(args, WORKSPACE, {});
      const workspace = await findWorkspaceOrThrow(value);
      const { resumed } = await resumeSending({ workspaceId: workspace.id, actor: AUDIT_CLI_ACTOR });
      const after = await findWorkspaceOrThrow(workspace.id);
      emit(context, { ...serializeWorkspaceState(after), resumed }, [
        `Resumed sending of "${after.name}" (${after.id}): ${resumed} held message${resumed === 1 ? "" : "s"} queued for delivery.`,
      ]);
    },
  },
  "workspace discard-paused": {
    usage: "workspace discard-paused ID|NAME [--json]",
    summary:
      "Erase every PAUSED message of the workspace (status DELETED, content removed, never sent). Sending stays paused.",
    database: "migrated",
    async run(args, context) {
      const { value } = leadingArgument(args, WORKSPACE, {});
      const workspace = await findWorkspaceOrThrow(value);
      const { discarded } = await discardPausedMessages({ workspaceId: workspace.id });
      emit(context, { id: workspace.id, name: workspace.name, discarded }, [
        `Discarded ${discarded} paused message${discarded === 1 ? "" : "s"} of "${workspace.name}": status DELETED, content erased.`,
      ]);
    },
  },
};
