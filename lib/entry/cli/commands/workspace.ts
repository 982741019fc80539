import "server-only";
import { createWorkspace } from "@/lib/domain/workspaces/create-workspace";
import { findWorkspaceOrThrow } from "@/lib/domain/workspaces/find-workspace-or-throw";
import { updateWorkspaceSettings } from "@/lib/domain/workspaces/update-workspace-settings";
import {
  emit,
  flag,
  leadingArgument,
  onOff,
  optionalString,
  parseFlags,
  requiredString,
  shellQuote,
  UsageError,
  type CliCommand,
} from "../io";
import { workspaceRetentionCommands } from "./workspace-retention";
import { serializeWorkspaceState, workspaceSendingCommands } from "./workspace-sending";

export const workspaceCommands: Record<string, CliCommand> = {
  "workspace create": {
    usage: "workspace create --name NAME [--no-test-mode] [--json]",
    summary: "Create a workspace (test mode on unless --no-test-mode).",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, { name: { type: "string" }, "no-test-mode": { type: "boolean" } });
      const workspace = await createWorkspace({
        name: requiredString(values, "name"),
        testMode: !flag(values, "no-test-mode"),
      });
      emit(
        context,
        {
          id: workspace.id,
          name: workspace.name,
          testMode: workspace.testMode,
          createdAt: workspace.createdAt.toISOString(),
        },
        [
          `Created workspace "${workspace.name}" (${workspace.id}).`,
          workspace.testMode
            ? "Test mode is on: live sends may go only to the workspace members' addresses."
            : "Test mode is off: live sends go to any address.",
          `Next: npm run cli -- key create --workspace ${shellQuote(workspace.id)} --name "my key"`,
        ],
      );
    },
  },
  "workspace set": {
    usage: "workspace set ID|NAME [--name NAME] [--tracking on|off] [--test-mode on|off] [--json]",
    summary: "Change a workspace's name, open/click tracking or test mode.",
    database: "migrated",
    async run(args, context) {
      const { value, flags } = leadingArgument(args, "the workspace (ID or NAME)", {
        name: { type: "string" },
        tracking: { type: "string" },
        "test-mode": { type: "string" },
      });
      const changes = {
        name: optionalString(flags, "name"),
        trackingEnabled: onOff(flags, "tracking"),
        testMode: onOff(flags, "test-mode"),
      };
      if (Object.values(changes).every((change) => change === undefined)) {
        throw new UsageError("Nothing to change: give --name, --tracking or --test-mode.");
      }
      const target = await findWorkspaceOrThrow(value);
      // The operator acts with an owner's rights, under the dashboard's rules (System mail stays live and untracked).
      await updateWorkspaceSettings({ userId: "cli", workspaceId: target.id, role: "OWNER" }, changes);
      const workspace = await findWorkspaceOrThrow(target.id);
      emit(context, serializeWorkspaceState(workspace), [
        `Updated workspace "${workspace.name}" (${workspace.id}): tracking ${workspace.trackingEnabled ? "on" : "off"}, test mode ${workspace.testMode ? "on" : "off"}.`,
      ]);
    },
  },
  ...workspaceSendingCommands,
  ...workspaceRetentionCommands,
};
