import "server-only";
import type { RuleMatch } from "@/db/schema";
import { createRule } from "@/lib/domain/providers/create-rule";
import { deleteRule } from "@/lib/domain/providers/delete-rule";
import { getRuleOrThrow, listRules } from "@/lib/domain/providers/get-rule";
import { serializeRule } from "@/lib/domain/providers/serialize-rule";
import { updateRule } from "@/lib/domain/providers/update-rule";
import { dryRunRoute } from "@/lib/delivery/routing/dry-run";
import { AUDIT_CLI_ACTOR } from "@/lib/records/audit/actor";
import {
  emit,
  flag,
  leadingArgument,
  onOff,
  optionalString,
  parseFlags,
  requiredString,
  UsageError,
  type CliCommand,
  type FlagValues,
} from "../io";
import { listOf, naming, W, workspaceOf } from "./provider-commands";

/** A rule's match fields and the flags that set them; `any` drops a field (it then holds for every message). */
const MATCH_FLAGS: Record<keyof RuleMatch, string> = {
  recipientDomains: "recipient-domains",
  mailboxFamilies: "families",
  senderDomains: "sender-domains",
  streams: "streams",
  groupIds: "groups",
  templateIds: "templates",
};
const RULE_FLAGS: Record<string, string> = {
  ...Object.fromEntries(Object.entries(MATCH_FLAGS).map(([field, name]) => [`match.${field}`, name])),
  connections: "connections",
  name: "name",
  position: "position",
};

const RULE_OPTIONS = Object.fromEntries(
  [...Object.values(MATCH_FLAGS), "connections", "name", "position"].map((name) => [name, { type: "string" as const }]),
);

const RULE_USAGE =
  "[--name TEXT] [--recipient-domains D,*.D] [--families gmail,microsoft,yahoo,apple] [--sender-domains D,…] [--streams transactional,bulk] [--groups grp_…,…] [--templates tpl_…,…] [--position N]";

/** The match the flags give over `current` (a new rule: none), or undefined when no match flag is given. */
function matchOf(values: FlagValues, current: RuleMatch = {}): RuleMatch | undefined {
  const given = Object.entries(MATCH_FLAGS).filter(([, name]) => optionalString(values, name) !== undefined);
  if (given.length === 0) return undefined;
  const match: Record<string, string[]> = { ...current };
  for (const [field, name] of given) {
    const value = optionalString(values, name)!;
    if (value === "any") delete match[field];
    else match[field] = listOf(value);
  }
  return match as RuleMatch;
}

function positionOf(values: FlagValues): number | undefined {
  const value = optionalString(values, "position");
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--position must be a whole number (got "${value}").`);
  return Number(value);
}

type RuleView = ReturnType<typeof serializeRule>;

const LABELS: Record<keyof RuleMatch, string> = {
  recipientDomains: "recipient domains",
  mailboxFamilies: "families",
  senderDomains: "sender domains",
  streams: "streams",
  groupIds: "groups",
  templateIds: "templates",
};

function describeRule(r: RuleView): string {
  const conditions = Object.entries(r.match)
    .filter(([, values]) => Array.isArray(values) && values.length > 0)
    .map(([field, values]) => `${LABELS[field as keyof RuleMatch] ?? field} ${(values as string[]).join(",")}`);
  return `${r.name ?? "(no name)"}: ${conditions.length ? conditions.join("; ") : "every message"} → ${r.connections.join(", then ")}`;
}

const ruleLine = (r: RuleView) => `${r.id}  #${r.position}  ${r.enabled ? "enabled " : "DISABLED"}  ${describeRule(r)}`;

/** `npm run cli -- route …` (docs/delivery.md#routing-and-failover): which connections a workspace's mail takes. */
export const routingRuleCommands: Record<string, CliCommand> = {
  "route list": {
    usage: "route list --workspace ID|NAME [--json]",
    summary: "List a workspace's routing rules in the order they are tried; mail no rule takes goes through default.",
    database: "migrated",
    async run(args, context) {
      const workspace = await workspaceOf(parseFlags(args, W));
      const rules = (await listRules(workspace.id)).map(serializeRule);
      emit(context, rules, [
        ...(rules.length ? rules.map(ruleLine) : [`"${workspace.name}" has no routing rule.`]),
        "Anything else → default (the instance's provider).",
      ]);
    },
  },
  "route add": {
    usage: `route add --workspace ID|NAME --connections PRIMARY[,FALLBACK…] ${RULE_USAGE} [--disabled] [--json]`,
    summary:
      "Add a routing rule (after the last unless --position): mail every given condition holds for goes through the connections, the first primary, the others fallbacks in order.",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, { ...W, ...RULE_OPTIONS, disabled: { type: "boolean" } });
      const workspace = await workspaceOf(values);
      const body = {
        name: optionalString(values, "name"),
        position: positionOf(values),
        match: matchOf(values),
        connections: listOf(requiredString(values, "connections")),
        enabled: flag(values, "disabled") ? false : undefined,
      };
      const view = serializeRule(await naming(RULE_FLAGS, createRule(workspace.id, body, AUDIT_CLI_ACTOR)));
      emit(context, view, [`Added rule ${ruleLine(view)}`]);
    },
  },
  "route set": {
    usage: `route set rrule_… --workspace ID|NAME [--connections PRIMARY[,FALLBACK…]] ${RULE_USAGE} [--enabled on|off] [--json]`,
    summary: "Change a routing rule; match flags change only their condition, `any` drops it (e.g. --families any).",
    database: "migrated",
    async run(args, context) {
      const { value, flags } = leadingArgument(args, "the rule id (rrule_…)", {
        ...W,
        ...RULE_OPTIONS,
        enabled: { type: "string" },
      });
      const workspace = await workspaceOf(flags);
      const connections = optionalString(flags, "connections");
      const changes = {
        name: optionalString(flags, "name"),
        position: positionOf(flags),
        connections: connections === undefined ? undefined : listOf(connections),
        enabled: onOff(flags, "enabled"),
      };
      const current = await getRuleOrThrow(workspace.id, value);
      const match = matchOf(flags, current.match);
      if (match === undefined && Object.values(changes).every((change) => change === undefined))
        throw new UsageError("Nothing to change: give --connections, a match flag, --name, --position or --enabled.");
      const body = { ...changes, match };
      const view = serializeRule(await naming(RULE_FLAGS, updateRule(workspace.id, current.id, body, AUDIT_CLI_ACTOR)));
      emit(context, view, [`Updated rule ${ruleLine(view)}`]);
    },
  },
  "route remove": {
    usage: "route remove rrule_… --workspace ID|NAME [--json]",
    summary: "Remove a routing rule; mail it took falls to the next rule, or to default.",
    database: "migrated",
    async run(args, context) {
      const { value, flags } = leadingArgument(args, "the rule id (rrule_…)", W);
      const workspace = await workspaceOf(flags);
      const removed = serializeRule(await deleteRule(workspace.id, value, AUDIT_CLI_ACTOR));
      emit(context, { id: removed.id, deleted: true }, [`Removed rule ${removed.id} (${describeRule(removed)}).`]);
    },
  },
  "route dry-run": {
    usage:
      "route dry-run --workspace ID|NAME --from ADDRESS --to ADDRESS[,…] [--cc ADDRESS,…] [--bcc ADDRESS,…] [--tags stream:bulk,…] [--group grp_…] [--template tpl_…] [--json]",
    summary:
      "Which rule and connections a message with these fields would take now, with each circuit; nothing is sent.",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, {
        ...W,
        ...Object.fromEntries(
          ["from", "to", "cc", "bcc", "tags", "group", "template"].map((name) => [name, { type: "string" as const }]),
        ),
      });
      const workspace = await workspaceOf(values);
      const list = (name: string) => {
        const value = optionalString(values, name);
        return value === undefined ? undefined : listOf(value);
      };
      const body = {
        from: requiredString(values, "from"),
        to: listOf(requiredString(values, "to")),
        cc: list("cc"),
        bcc: list("bcc"),
        tags: list("tags"),
        groupId: optionalString(values, "group"),
        templateId: optionalString(values, "template"),
      };
      const flags = { to: "to", cc: "cc", bcc: "bcc", tags: "tags", groupId: "group", templateId: "template" };
      const result = await naming(flags, dryRunRoute(workspace.id, body));
      emit(context, result, dryRunLines(result));
    },
  },
};

function dryRunLines(result: Awaited<ReturnType<typeof dryRunRoute>>): string[] {
  const { facts } = result;
  const recipients = facts.recipientDomains.map((r) =>
    r.mailboxFamily ? `${r.domain} (${r.mailboxFamily})` : r.domain,
  );
  return [
    result.summary,
    ...result.connections.map(
      (hop) =>
        `  ${hop.role.padEnd(8)}  ${hop.name} (${hop.kind}${hop.id === hop.name ? "" : `, ${hop.id}`})  circuit ${hop.circuit}`,
    ),
    `  read: stream ${facts.stream}, sender domain ${facts.senderDomain || "none"}, recipients ${recipients.join(", ") || "none"}`,
  ];
}
