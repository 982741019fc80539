import type { z } from "zod";
import type { ruleMatchSchema } from "@/lib/domain/providers/schemas";
import type { circuitStates } from "@/lib/delivery/routing/circuit-breaker";

// The Providers page's values in words: what a rule matches, its chain of connections, a connection's limits.

export type RuleMatch = z.infer<typeof ruleMatchSchema>;
export type MailboxFamily = NonNullable<RuleMatch["mailboxFamilies"]>[number];
export type CircuitState = Awaited<ReturnType<typeof circuitStates>>[string];

export const FAMILY_SHORT: Record<MailboxFamily, string> = {
  gmail: "Gmail",
  microsoft: "Microsoft",
  yahoo: "Yahoo",
  apple: "Apple",
};

/** What each family takes in: its own domains, and company domains whose MX hosts are its. */
export const FAMILY_NAMES: Record<MailboxFamily, string> = {
  gmail: "Gmail (and Google Workspace)",
  microsoft: "Microsoft (Outlook, Hotmail, Microsoft 365)",
  yahoo: "Yahoo (and AOL)",
  apple: "Apple (iCloud)",
};

/** "a", "a or b", "a, b or c". */
export function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

/** What a rule matches: every field given must match; none given matches every message. */
export function matchWords(match: RuleMatch): string {
  const parts: string[] = [];
  if (match.recipientDomains?.length) parts.push(`whose recipients are all at ${orList(match.recipientDomains)}`);
  if (match.mailboxFamilies?.length)
    parts.push(`whose recipients' mailboxes are all at ${orList(match.mailboxFamilies.map((f) => FAMILY_SHORT[f]))}`);
  if (match.senderDomains?.length) parts.push(`sent from ${orList(match.senderDomains)}`);
  if (match.streams?.length) parts.push(`in the ${orList(match.streams)} stream`);
  if (match.groupIds?.length) parts.push(`in unsubscribe group ${orList(match.groupIds)}`);
  if (match.templateIds?.length) parts.push(`made from template ${orList(match.templateIds)}`);
  return parts.length ? `Messages ${parts.join(" and ")}` : "Every message";
}

/** "primary → fallback → …". */
export function chainWords(connections: readonly string[]): string {
  return connections.join(" → ");
}

export function limitWords(ratePerSecond: number | null, concurrency: number | null): string {
  const parts = [
    ratePerSecond === null ? null : `${ratePerSecond} a second`,
    concurrency === null ? null : `${concurrency} at once`,
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "no limits";
}

export const CIRCUIT_WORDS: Record<CircuitState, string> = {
  closed: "closed",
  open: "open",
  half_open: "half-open",
};
