import type { RoutingRule } from "./get-rule";

/** A rule as the API, the CLI and the dashboard show it. */
export function serializeRule(rule: RoutingRule) {
  return {
    id: rule.id,
    type: "RoutingRule" as const,
    name: rule.name,
    position: rule.position,
    match: rule.match,
    connections: rule.connections,
    enabled: rule.enabled,
    createdAt: rule.createdAt.toISOString(),
    updatedAt: rule.updatedAt.toISOString(),
  };
}
