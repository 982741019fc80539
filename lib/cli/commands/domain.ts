import "server-only";
import { addDomain } from "@/lib/domains/add-domain";
import { findWorkspaceOrThrow } from "@/lib/workspaces/find-workspace-or-throw";
import { emit, flag, parseFlags, requiredString, type CliCommand } from "../io";

export const domainCommands: Record<string, CliCommand> = {
  "domain add": {
    usage: "domain add --workspace ID|NAME --name DOMAIN [--verified] [--json]",
    summary: "Add a sending domain; --verified marks it verified without a DNS check (local use).",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, { workspace: { type: "string" }, name: { type: "string" }, verified: { type: "boolean" } });
      const workspaceRef = requiredString(values, "workspace");
      const name = requiredString(values, "name");
      const workspace = await findWorkspaceOrThrow(workspaceRef);
      const domain = await addDomain({ workspaceId: workspace.id, name, verified: flag(values, "verified") });
      emit(
        context,
        {
          id: domain.id,
          name: domain.name,
          status: domain.status,
          workspaceId: domain.workspaceId,
          verifiedAt: domain.verifiedAt?.toISOString() ?? null,
          createdAt: domain.createdAt.toISOString(),
        },
        [
          `Added domain ${domain.name} (${domain.id}) to "${workspace.name}" (${workspace.id}): ${domain.status}.`,
          domain.status === "VERIFIED"
            ? "Marked verified without a DNS check: messages from this domain are accepted."
            : "Publish its DNS records (shown on the dashboard's Domains page), then verify it there.",
        ],
      );
    },
  },
};
