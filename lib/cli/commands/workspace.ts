import "server-only";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import { emit, flag, parseFlags, requiredString, shellQuote, type CliCommand } from "../io";

export const workspaceCommands: Record<string, CliCommand> = {
  "workspace create": {
    usage: "workspace create --name NAME [--no-test-mode] [--json]",
    summary: "Create a workspace (test mode on unless --no-test-mode).",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, { name: { type: "string" }, "no-test-mode": { type: "boolean" } });
      const workspace = await createWorkspace({ name: requiredString(values, "name"), testMode: !flag(values, "no-test-mode") });
      emit(
        context,
        { id: workspace.id, name: workspace.name, testMode: workspace.testMode, createdAt: workspace.createdAt.toISOString() },
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
};
