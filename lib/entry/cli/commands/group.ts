import "server-only";
import { AUDIT_CLI_ACTOR } from "@/lib/records/audit/actor";
import { createUnsubscribeGroup } from "@/lib/domain/contacts/create-unsubscribe-group";
import { findWorkspaceOrThrow } from "@/lib/domain/workspaces/find-workspace-or-throw";
import { emit, parseFlags, requiredString, type CliCommand } from "../io";

export const groupCommands: Record<string, CliCommand> = {
  "group create": {
    usage: "group create --workspace ID|NAME --key KEY --name NAME [--json]",
    summary: "Create an unsubscribe group; sends name it with groupId or groupKey.",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, {
        workspace: { type: "string" },
        key: { type: "string" },
        name: { type: "string" },
      });
      const workspace = await findWorkspaceOrThrow(requiredString(values, "workspace"));
      const group = await createUnsubscribeGroup({
        workspaceId: workspace.id,
        key: requiredString(values, "key"),
        name: requiredString(values, "name"),
        actor: AUDIT_CLI_ACTOR,
      });
      emit(
        context,
        {
          id: group.id,
          key: group.key,
          name: group.name,
          workspaceId: group.workspaceId,
          createdAt: group.createdAt.toISOString(),
        },
        [`Created unsubscribe group "${group.name}" (key ${group.key}, id ${group.id}) in "${workspace.name}".`],
      );
    },
  },
};
