import "server-only";
import { AUDIT_CLI_ACTOR } from "@/lib/records/audit/actor";
import { addDomain } from "@/lib/domain/domains/add-domain";
import { findDomainOrThrow } from "@/lib/domain/domains/get-domain-or-throw";
import { verifyDomain } from "@/lib/domain/domains/verify-domain";
import { AppError } from "@/lib/foundation/errors";
import { findWorkspaceOrThrow } from "@/lib/domain/workspaces/find-workspace-or-throw";
import { emit, flag, parseFlags, requiredString, UsageError, type CliCommand } from "../io";

export const domainCommands: Record<string, CliCommand> = {
  "domain add": {
    usage: "domain add --workspace ID|NAME --name DOMAIN [--verified] [--json]",
    summary: "Add a sending domain; --verified marks it verified without a DNS check (local use).",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, {
        workspace: { type: "string" },
        name: { type: "string" },
        verified: { type: "boolean" },
      });
      const workspaceRef = requiredString(values, "workspace");
      const name = requiredString(values, "name");
      const workspace = await findWorkspaceOrThrow(workspaceRef);
      const domain = await addDomain({
        workspaceId: workspace.id,
        name,
        verified: flag(values, "verified"),
        actor: AUDIT_CLI_ACTOR,
      });
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
  "domain verify": {
    usage: "domain verify ID|NAME --workspace ID|NAME [--json]",
    summary: "Look up the domain's SPF, DKIM and DMARC records and store the outcome; exit code 1 unless VERIFIED.",
    database: "migrated",
    async run(args, context) {
      const [ref, ...rest] = args;
      if (ref === undefined || ref.startsWith("-")) throw new UsageError("Name the domain to verify (its id or name).");
      const values = parseFlags(rest, { workspace: { type: "string" } });
      const workspace = await findWorkspaceOrThrow(requiredString(values, "workspace"));
      const { domain, checks } = await verifyDomain(
        workspace.id,
        (await findDomainOrThrow(workspace.id, ref)).id,
        AUDIT_CLI_ACTOR,
      );
      emit(
        context,
        {
          id: domain.id,
          name: domain.name,
          status: domain.status,
          verifiedAt: domain.verifiedAt?.toISOString() ?? null,
          lastCheckedAt: domain.lastCheckedAt?.toISOString() ?? null,
          lastCheckError: domain.lastCheckError,
          checks,
        },
        [
          `${domain.name} (${domain.id}): ${domain.status}.`,
          ...(checks.length === 0 ? ["DOMAIN_VERIFICATION=off: marked verified without a DNS lookup."] : []),
          ...checks.map(
            (check) =>
              `  ${check.kind.padEnd(5)} ${check.outcome}${check.required ? "" : " (recommended)"}  ${check.host}${check.detail ? `  ${check.detail}` : ""}`,
          ),
        ],
      );
      if (domain.status !== "VERIFIED") {
        throw new AppError("CONFLICT", `${domain.name} is not verified: ${domain.lastCheckError ?? "see above"}.`);
      }
    },
  },
};
