import "server-only";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { findWorkspaceOrThrow } from "@/lib/workspaces/find-workspace-or-throw";
import { emit, parseFlags, requiredString, type CliCommand } from "../io";

export const keyCommands: Record<string, CliCommand> = {
  "key create": {
    usage: "key create --workspace ID|NAME --name NAME [--json]",
    summary: "Create an API key; its username and password are printed once.",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, { workspace: { type: "string" }, name: { type: "string" } });
      const workspaceRef = requiredString(values, "workspace");
      const name = requiredString(values, "name");
      const workspace = await findWorkspaceOrThrow(workspaceRef);
      const key = await createApiKey({ workspaceId: workspace.id, name });
      emit(
        context,
        {
          id: key.id,
          username: key.id,
          password: key.password,
          name: key.name,
          workspaceId: key.workspaceId,
          createdAt: key.createdAt.toISOString(),
        },
        [
          `Created API key "${key.name}" in "${workspace.name}" (${workspace.id}).`,
          `  username: ${key.id}`,
          `  password: ${key.password}`,
          "The password is shown only this once; store it now. Send it as HTTP Basic credentials (username:password).",
        ],
      );
    },
  },
};
