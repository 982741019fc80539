import type { MailToSend } from "./4-build-mail";
import type { DeliveryOutcome } from "./6-record";

// What the SENT event says, on both of step 6's paths (one statement for plain acceptances, a transaction otherwise).

/** The connection, the rule that chose it and the connections skipped for an open circuit: said on the SENT event. */
export interface RouteNote {
  connection: string;
  rule: { id: string; name: string | null } | null;
  /** The workspace has rules and none matched. */
  unmatched: boolean;
  skipped: string[];
  /** The route has fallbacks: the message was bound to its connection (email_messages.connection_id). */
  bound: boolean;
}

/** Said only when there is more to say than "the default connection". */
export function routeNote({ hop, route, skipped }: MailToSend): RouteNote | undefined {
  const unmatched = route.unmatched === true;
  if (!hop || (hop.connectionId === "default" && !route.rule && !unmatched && skipped.length === 0)) return undefined;
  return { connection: hop.name, rule: route.rule, unmatched, skipped, bound: !route.pinned && route.hops.length > 1 };
}

/** " (connection eu-relay, rule Microsoft; skipped primary: circuit breaker open)", or nothing. */
function routeClause(note: RouteNote | undefined): string {
  if (!note) return "";
  const rule = note.rule ? `, rule ${note.rule.name ?? note.rule.id}` : note.unmatched ? ", no rule matched" : "";
  const skipped = note.skipped.length ? `; skipped ${note.skipped.join(", ")}: circuit breaker open` : "";
  return ` (connection ${note.connection}${rule}${skipped})`;
}

/** "Sent through the SMTP relay relay.example.com (connection eu-relay, rule Microsoft)." */
export function sentWords(outcome: Pick<DeliveryOutcome, "provider" | "route">): string {
  return `Sent through ${outcome.provider.description}${routeClause(outcome.route)}.`;
}

export function sentDetails(outcome: Pick<DeliveryOutcome, "provider" | "route">, referenceId: string) {
  return {
    provider: outcome.provider.name,
    referenceId,
    ...(outcome.route && { connection: outcome.route.connection, rule: outcome.route.rule?.id ?? null }),
  };
}
