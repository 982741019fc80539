import "server-only";
import { AUDIT_CLI_ACTOR } from "@/lib/records/audit/actor";
import type { SUPPRESSION_REASONS } from "@/db/schema/suppressions";
import { addSuppression, type Suppression } from "@/lib/domain/suppressions/add-suppression";
import { listSuppressions } from "@/lib/domain/suppressions/list-suppressions";
import { removeSuppressionOrThrow } from "@/lib/domain/suppressions/remove-suppression";
import { findWorkspaceOrThrow } from "@/lib/domain/workspaces/find-workspace-or-throw";
import { emit, optionalString, parseFlags, requiredString, type CliCommand } from "../io";

const serialize = (row: Suppression) => ({
  email: row.email,
  reason: row.reason,
  emailMessageId: row.emailMessageId,
  detail: row.detail,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const suppressionCommands: Record<string, CliCommand> = {
  "suppression list": {
    usage: "suppression list --workspace ID|NAME [--json]",
    summary: "List the workspace's suppressed addresses (hard bounces, complaints, added by hand).",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, { workspace: { type: "string" } });
      const workspace = await findWorkspaceOrThrow(requiredString(values, "workspace"));
      const rows = await listSuppressions(workspace.id);
      const lines =
        rows.length === 0
          ? [`No suppressed addresses in "${workspace.name}".`]
          : rows.map((row) => `${row.email}\t${row.reason}\t${row.createdAt.toISOString()}`);
      emit(context, rows.map(serialize), lines);
    },
  },
  "suppression add": {
    usage: "suppression add --workspace ID|NAME --email ADDRESS [--reason MANUAL|HARD_BOUNCE|COMPLAINT] [--json]",
    summary: "Suppress an address: later live sends of the workspace skip it.",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, {
        workspace: { type: "string" },
        email: { type: "string" },
        reason: { type: "string" },
      });
      const workspace = await findWorkspaceOrThrow(requiredString(values, "workspace"));
      const reason = (
        optionalString(values, "reason") ?? "MANUAL"
      ).toUpperCase() as (typeof SUPPRESSION_REASONS)[number];
      const row = await addSuppression({
        workspaceId: workspace.id,
        email: requiredString(values, "email"),
        reason,
        actor: AUDIT_CLI_ACTOR,
      });
      emit(context, serialize(row), [`Suppressed ${row.email} (${row.reason}) in "${workspace.name}".`]);
    },
  },
  "suppression remove": {
    usage: "suppression remove --workspace ID|NAME --email ADDRESS [--json]",
    summary: "Take an address off the suppression list: later sends go to it again.",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, { workspace: { type: "string" }, email: { type: "string" } });
      const workspace = await findWorkspaceOrThrow(requiredString(values, "workspace"));
      const row = await removeSuppressionOrThrow(workspace.id, requiredString(values, "email"), AUDIT_CLI_ACTOR);
      emit(context, serialize(row), [`Removed ${row.email} from the suppression list of "${workspace.name}".`]);
    },
  },
};
