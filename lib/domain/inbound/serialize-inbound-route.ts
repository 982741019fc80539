import type { InboundRoute } from "./get-inbound-route";

/** A route as the API, the CLI and the dashboard show it (docs/api.md#inbound-domains-and-routes). */
export function serializeInboundRoute(route: InboundRoute) {
  return {
    id: route.id,
    type: "InboundRoute" as const,
    inboundDomainId: route.inboundDomainId,
    name: route.name,
    pattern: route.pattern,
    kind: route.kind,
    actions: route.actions,
    dmarcFailAction: route.dmarcFailAction,
    spamThreshold: route.spamThreshold,
    spamAction: route.spamAction,
    enabled: route.enabled,
    createdAt: route.createdAt.toISOString(),
    updatedAt: route.updatedAt.toISOString(),
  };
}
