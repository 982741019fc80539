import type { inboundRoutes } from "@/db/schema";
import type { AuthVerdict, SpamVerdict } from "@/lib/flows/inbound/parse/types";

type Route = typeof inboundRoutes.$inferSelect | null;

export type PolicyDecision = { kind: "accept" } | { kind: "quarantine" | "reject"; reason: string };

/** A route's DMARC and spam policy on one mail's verdicts (docs/inbound.md#storing-and-actions); no route accepts. */
export function decidePolicy(route: Route, auth: AuthVerdict, spam: SpamVerdict): PolicyDecision {
  if (!route) return { kind: "accept" };
  if (auth.dmarc === "fail" && route.dmarcFailAction !== "accept") {
    return { kind: route.dmarcFailAction, reason: "DMARC failed for the sender's domain" };
  }
  const threshold = route.spamThreshold;
  if (threshold !== null && spam.score !== null && spam.score > threshold) {
    return { kind: route.spamAction, reason: `spam score ${spam.score} is above the route's threshold ${threshold}` };
  }
  return { kind: "accept" };
}
