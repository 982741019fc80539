import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Executor, Tx } from "@/db/client";
import { providerConnections, templates, unsubscribeGroups, type RuleMatch } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAuditedChange } from "@/lib/records/audit/record-audit";
import { invalidParameter } from "@/lib/foundation/errors";
import type { RoutingRule } from "./get-rule";
import { DEFAULT_CONNECTION } from "./schemas";

// What creating and changing a rule share: the connections and the ids it names must be the workspace's, the audit.

export const MAX_RULES = 100;

/** Each name once, and each one of the workspace's connections or `default`. */
export async function checkRuleConnections(db: Executor, workspaceId: string, names: string[]): Promise<void> {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw invalidParameter("connections", `connections names ${name} twice.`);
    seen.add(name);
  }
  const wanted = names.filter((name) => name !== DEFAULT_CONNECTION);
  if (wanted.length === 0) return;
  const found = await db
    .select({ name: providerConnections.name })
    .from(providerConnections)
    .where(and(eq(providerConnections.workspaceId, workspaceId), inArray(providerConnections.name, wanted)));
  const known = new Set(found.map((row) => row.name));
  const missing = wanted.find((name) => !known.has(name));
  if (missing)
    throw invalidParameter(
      "connections",
      `${missing} is not a connection of this workspace: create it first (POST /v1/providers), or name default.`,
    );
}

/** The templates and groups a match names must be the workspace's. */
export async function checkRuleMatch(db: Executor, workspaceId: string, match: RuleMatch): Promise<void> {
  const checks = [
    { param: "match.templateIds", ids: match.templateIds, table: templates, what: "template" },
    { param: "match.groupIds", ids: match.groupIds, table: unsubscribeGroups, what: "unsubscribe group" },
  ] as const;
  for (const { param, ids, table, what } of checks) {
    if (!ids?.length) continue;
    const rows = await db
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.workspaceId, workspaceId), inArray(table.id, ids)));
    const known = new Set(rows.map((row) => row.id));
    const missing = ids.find((id) => !known.has(id));
    if (missing) throw invalidParameter(param, `${missing} is not a ${what} of this workspace.`);
  }
}

const audited = (row: RoutingRule) => ({
  name: row.name,
  position: row.position,
  match: row.match,
  connections: row.connections,
  enabled: row.enabled,
});

export async function auditRule(
  tx: Tx,
  actor: AuditActor,
  action: "routing_rule.create" | "routing_rule.update" | "routing_rule.delete",
  before: RoutingRule | null,
  after: RoutingRule | null,
): Promise<void> {
  await recordAuditedChange(tx, { actor, action, targetType: "routing_rule", before, after, audited });
}
