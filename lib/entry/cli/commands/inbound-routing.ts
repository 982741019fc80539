import "server-only";
import type { InboundAction } from "@/db/schema";
import { addInboundDomain } from "@/lib/domain/inbound/add-inbound-domain";
import { createInboundRoute } from "@/lib/domain/inbound/create-inbound-route";
import { deleteInboundDomain } from "@/lib/domain/inbound/delete-inbound-domain";
import { deleteInboundRoute } from "@/lib/domain/inbound/delete-inbound-route";
import { findInboundDomainOrThrow } from "@/lib/domain/inbound/get-inbound-domain";
import { listInboundDomains } from "@/lib/domain/inbound/list-inbound-domains";
import { listInboundRoutes } from "@/lib/domain/inbound/list-inbound-routes";
import { serializeInboundDomain } from "@/lib/domain/inbound/serialize-inbound-domain";
import { serializeInboundRoute } from "@/lib/domain/inbound/serialize-inbound-route";
import { verifyInboundDomain } from "@/lib/domain/inbound/verify-inbound-domain";
import { findWorkspaceOrThrow } from "@/lib/domain/workspaces/find-workspace-or-throw";
import { AUDIT_CLI_ACTOR } from "@/lib/records/audit/actor";
import { AppError, invalidParameter } from "@/lib/foundation/errors";
import {
  emit,
  flag,
  leadingArgument,
  optionalString,
  parseFlags,
  requiredString,
  type CliCommand,
  type FlagValues,
} from "../io";

const W = { workspace: { type: "string" } } as const;
const workspaceOf = async (values: FlagValues) => findWorkspaceOrThrow(requiredString(values, "workspace"));

type DomainView = ReturnType<typeof serializeInboundDomain>;
const mxLine = (d: DomainView) => `  publish: ${d.name}. MX ${d.records[0].priority} ${d.records[0].value}.`;

/** `npm run cli -- inbound domains …` and `inbound routes …` (docs/inbound.md): the API's use cases, the CLI as actor. */
export const inboundRoutingCommands: Record<string, CliCommand> = {
  "inbound domains add": {
    usage: "inbound domains add --workspace ID|NAME --name DOMAIN [--verified] [--json]",
    summary: "Add a domain to receive mail for; prints the MX record to publish (--verified: no DNS check, local use).",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, { ...W, name: { type: "string" }, verified: { type: "boolean" } });
      const workspace = await workspaceOf(values);
      const domain = await addInboundDomain({
        workspaceId: workspace.id,
        name: requiredString(values, "name"),
        verified: flag(values, "verified") || undefined,
        actor: AUDIT_CLI_ACTOR,
      });
      const view = serializeInboundDomain(domain);
      emit(context, view, [
        `Added inbound domain ${view.name} (${view.id}) to "${workspace.name}": ${view.status}.`,
        mxLine(view),
      ]);
    },
  },
  "inbound domains list": {
    usage: "inbound domains list --workspace ID|NAME [--json]",
    summary: "List a workspace's inbound domains with their status.",
    database: "migrated",
    async run(args, context) {
      const workspace = await workspaceOf(parseFlags(args, W));
      const domains = (await listInboundDomains(workspace.id)).map((domain) => serializeInboundDomain(domain));
      emit(
        context,
        domains,
        domains.length
          ? domains.map(
              (d) => `${d.id}  ${d.status.padEnd(8)}  ${d.name}${d.lastCheckError ? `  (${d.lastCheckError})` : ""}`,
            )
          : [`"${workspace.name}" has no inbound domain.`],
      );
    },
  },
  "inbound domains verify": {
    usage: "inbound domains verify ID|NAME --workspace ID|NAME [--json]",
    summary: "Look the domain's MX up and store the outcome; exit code 1 unless VERIFIED.",
    database: "migrated",
    async run(args, context) {
      const { value, flags } = leadingArgument(args, "the inbound domain (its id or name)", W);
      const workspace = await workspaceOf(flags);
      const found = await findInboundDomainOrThrow(workspace.id, value);
      const { domain, check } = await verifyInboundDomain(workspace.id, found.id, AUDIT_CLI_ACTOR);
      const view = serializeInboundDomain(domain, check);
      emit(context, view, [
        `${view.name} (${view.id}): ${view.status}.`,
        check
          ? `  MX ${check.outcome}${check.detail ? `  ${check.detail}` : ""}`
          : "  DOMAIN_VERIFICATION=off: verified without a lookup.",
        ...(view.status === "VERIFIED" ? [] : [mxLine(view)]),
      ]);
      if (view.status !== "VERIFIED")
        throw new AppError("CONFLICT", `${view.name} is not verified: ${view.lastCheckError ?? "see above"}.`);
    },
  },
  "inbound domains delete": {
    usage: "inbound domains delete ID|NAME --workspace ID|NAME [--json]",
    summary: "Delete an inbound domain with its routes; mail to it is refused from then on.",
    database: "migrated",
    async run(args, context) {
      const { value, flags } = leadingArgument(args, "the inbound domain (its id or name)", W);
      const workspace = await workspaceOf(flags);
      const found = await findInboundDomainOrThrow(workspace.id, value);
      await deleteInboundDomain(workspace.id, found.id, AUDIT_CLI_ACTOR);
      emit(context, { id: found.id, deleted: true }, [
        `Deleted inbound domain ${found.name} (${found.id}) and its routes.`,
      ]);
    },
  },
  "inbound routes add": {
    usage:
      "inbound routes add --workspace ID|NAME --pattern PATTERN [--name TEXT] [--webhook] [--forward ADDRESS [--forward-from ADDRESS]] [--workflow wf_…] [--dmarc-reports] [--reject '550 TEXT'] [--actions JSON] [--dmarc accept|quarantine|reject] [--spam-threshold N] [--spam-action quarantine|reject] [--disabled] [--json]",
    summary:
      "Route a pattern (support@d, support+{hash}@d, *@d) to actions, in the order webhook, forward, workflow, dmarc reports; or reject.",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, {
        ...W,
        pattern: { type: "string" },
        name: { type: "string" },
        webhook: { type: "boolean" },
        "dmarc-reports": { type: "boolean" },
        forward: { type: "string" },
        "forward-from": { type: "string" },
        workflow: { type: "string" },
        reject: { type: "string" },
        actions: { type: "string" },
        dmarc: { type: "string" },
        "spam-threshold": { type: "string" },
        "spam-action": { type: "string" },
        disabled: { type: "boolean" },
      });
      const workspace = await workspaceOf(values);
      const threshold = optionalString(values, "spam-threshold");
      const route = await createInboundRoute(
        workspace.id,
        {
          pattern: requiredString(values, "pattern"),
          name: optionalString(values, "name"),
          actions: actionsFromFlags(values),
          dmarcFailAction: optionalString(values, "dmarc"),
          spamThreshold: threshold === undefined ? undefined : Number(threshold),
          spamAction: optionalString(values, "spam-action"),
          enabled: flag(values, "disabled") ? false : undefined,
        },
        AUDIT_CLI_ACTOR,
      );
      const view = serializeInboundRoute(route);
      emit(context, view, [`Added route ${view.id}: ${view.pattern} → ${describeActions(view.actions)}.`]);
    },
  },
  "inbound routes list": {
    usage: "inbound routes list --workspace ID|NAME [--domain ID|NAME] [--json]",
    summary: "List a workspace's inbound routes (newest first, at most 100).",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, { ...W, domain: { type: "string" } });
      const workspace = await workspaceOf(values);
      const domain = optionalString(values, "domain");
      const { items } = await listInboundRoutes(workspace.id, {
        limit: 100,
        cursor: null,
        ...(domain ? { domain } : {}),
      });
      const routes = items.map(serializeInboundRoute);
      emit(
        context,
        routes,
        routes.length
          ? routes.map(
              (r) => `${r.id}  ${r.enabled ? "enabled " : "DISABLED"}  ${r.pattern}  → ${describeActions(r.actions)}`,
            )
          : [`"${workspace.name}" has no inbound route.`],
      );
    },
  },
  "inbound routes delete": {
    usage: "inbound routes delete irt_… --workspace ID|NAME [--json]",
    summary: "Delete an inbound route; mail to its pattern falls to the next route, or is refused.",
    database: "migrated",
    async run(args, context) {
      const { value, flags } = leadingArgument(args, "the route id (irt_…)", W);
      const workspace = await workspaceOf(flags);
      const route = await deleteInboundRoute(workspace.id, value, AUDIT_CLI_ACTOR);
      emit(context, { id: route.id, deleted: true }, [`Deleted route ${route.id} (${route.pattern}).`]);
    },
  },
};

/** --actions JSON as it is (the API's shape), else the flags in the order a route runs them. */
function actionsFromFlags(values: FlagValues): unknown {
  const json = optionalString(values, "actions");
  if (json !== undefined) {
    try {
      return JSON.parse(json);
    } catch {
      throw invalidParameter("actions", '--actions must be a JSON array, e.g. [{"type":"webhook"}].');
    }
  }
  const actions: unknown[] = [];
  if (flag(values, "webhook")) actions.push({ type: "webhook" });
  const forward = optionalString(values, "forward");
  const from = optionalString(values, "forward-from");
  if (forward !== undefined) actions.push({ type: "forward", to: forward, ...(from ? { from } : {}) });
  const workflow = optionalString(values, "workflow");
  if (workflow !== undefined) actions.push({ type: "workflow", workflowId: workflow });
  if (flag(values, "dmarc-reports")) actions.push({ type: "dmarc" });
  const reject = optionalString(values, "reject");
  if (reject !== undefined) {
    const match = /^(\d{3})\s+(.+)$/.exec(reject.trim());
    if (!match)
      throw invalidParameter("actions", `--reject must be a code and a text, e.g. "550 This address is gone".`);
    actions.push({ type: "reject", code: Number(match[1]), message: match[2] });
  }
  return actions;
}

function describeActions(actions: InboundAction[]): string {
  if (actions.length === 0) return "store";
  return [
    "store",
    ...actions.map((a) =>
      a.type === "forward"
        ? `forward to ${a.to}`
        : a.type === "workflow"
          ? `workflow ${a.workflowId}`
          : a.type === "reject"
            ? `reject ${a.code} ${a.message}`
            : a.type === "dmarc"
              ? "dmarc reports"
              : "webhook",
    ),
  ]
    .filter((step, index, all) => !(all.some((s) => s.startsWith("reject")) && step === "store"))
    .join(", ");
}
