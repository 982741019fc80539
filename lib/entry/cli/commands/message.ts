import "server-only";
import { cancelMessage } from "@/lib/domain/messages/cancel-message";
import { eraseMessage } from "@/lib/domain/messages/erase-message";
import { findWorkspaceOrThrow } from "@/lib/domain/workspaces/find-workspace-or-throw";
import { emit, leadingArgument, requiredString, type CliCommand } from "../io";

export const messageCommands: Record<string, CliCommand> = {
  "message erase": {
    usage: "message erase MESSAGE_ID --workspace ID|NAME [--json]",
    summary:
      "Erase a message: status DELETED; subject, bodies, variables and stored MIME removed; metadata and timeline kept. A waiting message is never sent.",
    database: "migrated",
    async run(args, context) {
      const { value: messageId, flags } = leadingArgument(args, "the message id (em_…)", {
        workspace: { type: "string" },
      });
      const workspace = await findWorkspaceOrThrow(requiredString(flags, "workspace"));
      await eraseMessage({ workspaceId: workspace.id, messageId });
      emit(context, { id: messageId, workspaceId: workspace.id, status: "DELETED" }, [
        `Erased message ${messageId} of "${workspace.name}".`,
      ]);
    },
  },
  "message cancel": {
    usage: "message cancel MESSAGE_ID --workspace ID|NAME [--json]",
    summary:
      "Cancel a message still waiting for delivery (scheduled or queued, not handed over): status CANCELLED, never sent. Refused, naming the state, once it was handed over.",
    database: "migrated",
    async run(args, context) {
      const { value: messageId, flags } = leadingArgument(args, "the message id (em_…)", {
        workspace: { type: "string" },
      });
      const workspace = await findWorkspaceOrThrow(requiredString(flags, "workspace"));
      const message = await cancelMessage({ workspaceId: workspace.id, messageId, by: "from the command line" });
      const when = message.scheduledAt ? ` (it was scheduled for ${message.scheduledAt.toISOString()})` : "";
      emit(
        context,
        {
          id: messageId,
          workspaceId: workspace.id,
          status: message.status,
          scheduledAt: message.scheduledAt?.toISOString() ?? null,
        },
        [`Cancelled message ${messageId} of "${workspace.name}"${when}: it will not be sent.`],
      );
    },
  },
};
