import "server-only";
import { MEMBERSHIP_ROLES, type MembershipRole } from "@/db/schema";
import { createUser } from "@/lib/domain/users/create-user";
import { findWorkspaceOrThrow } from "@/lib/domain/workspaces/find-workspace-or-throw";
import { emit, optionalString, parseFlags, requiredString, UsageError, type CliCommand } from "../io";

export const userCommands: Record<string, CliCommand> = {
  "user create": {
    usage:
      "user create --email EMAIL --password PASSWORD --workspace ID|NAME [--role OWNER|ADMIN|MEMBER] [--name NAME] [--json]",
    summary: "Create a dashboard user with a password, as a member of a workspace (role MEMBER by default).",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, {
        email: { type: "string" },
        password: { type: "string" },
        workspace: { type: "string" },
        role: { type: "string" },
        name: { type: "string" },
      });
      const email = requiredString(values, "email");
      const password = requiredString(values, "password");
      const workspaceRef = requiredString(values, "workspace");
      const role = parseRole(optionalString(values, "role"));
      const workspace = await findWorkspaceOrThrow(workspaceRef);
      const user = await createUser({
        email,
        password,
        workspaceId: workspace.id,
        role,
        name: optionalString(values, "name"),
      });
      emit(context, { ...user, workspaceName: workspace.name, createdAt: user.createdAt.toISOString() }, [
        `Created user ${user.email} (${user.id}), ${user.role} of "${workspace.name}" (${workspace.id}).`,
        "They can sign in to the dashboard with this email and password.",
      ]);
    },
  },
};

function parseRole(value: string | undefined): MembershipRole | undefined {
  if (value === undefined) return undefined;
  const role = value.toUpperCase();
  if (!(MEMBERSHIP_ROLES as readonly string[]).includes(role)) {
    throw new UsageError(`--role must be one of ${MEMBERSHIP_ROLES.join(", ")} (got "${value}").`);
  }
  return role as MembershipRole;
}
