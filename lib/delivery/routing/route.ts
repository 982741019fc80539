import "server-only";
import type { Executor } from "@/db/client";
import type { MailboxFamily } from "@/db/schema/providers";
import { bareAddress, sendingDomain } from "@/lib/foundation/addresses/sender-address.shared";
import type { DeliveryProvider } from "../provider";
import { DEFAULT_CONNECTION, defaultHop, hopOf, type Hop } from "./hops";
import { mailboxFamilies } from "./mailbox-family";
import { matchesRule, streamOf, type RoutingFacts } from "./match-rule";
import { routingTableOf, type RoutingTable } from "./routing-table";

/** What routing reads of a message. */
export interface RoutableMessage {
  workspaceId: string;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  tags: string[];
  groupId: string | null;
  templateId: string | null;
  /** The connection an earlier hand-off went through, when its outcome was unclear (email_messages.connection_id). */
  connectionId: string | null;
}

/** The connections a message may go through, in order, and why. */
export interface Route {
  rule: { id: string; name: string | null } | null;
  hops: Hop[];
  /** True when an earlier hand-off's unclear outcome binds the message to its connection. */
  pinned: boolean;
  /** The workspace has enabled rules and none matched: the default connection by default, said on the timeline. */
  unmatched?: boolean;
}

/**
 * The first enabled rule that matches names the connections; no rule: the default connection. A message bound to a
 * connection by an unclear hand-off goes through that one only, whatever the rules say now.
 */
export async function routeOf(
  db: Executor,
  message: RoutableMessage,
  defaultProvider?: DeliveryProvider,
): Promise<Route> {
  const table = await routingTableOf(db, message.workspaceId);
  const fallback = defaultHop(defaultProvider);
  if (message.connectionId)
    return { rule: null, hops: await pinnedHops(table, message.connectionId, fallback), pinned: true };
  if (table.rules.length === 0) return { rule: null, hops: [fallback], pinned: false };
  const facts = factsOf(message);
  const families = table.rules.some((rule) => rule.match.mailboxFamilies)
    ? await mailboxFamilies(facts.recipientDomains)
    : new Map<string, MailboxFamily | null>();
  const rule = table.rules.find((candidate) =>
    matchesRule(candidate.match, facts, (domain) => families.get(domain) ?? null),
  );
  if (!rule) return { rule: null, hops: [fallback], pinned: false, unmatched: true };
  const hops = await Promise.all(rule.connections.map((name) => namedHop(table, name, fallback)));
  return {
    rule: { id: rule.id, name: rule.name },
    hops: hops.filter((hop): hop is Hop => hop !== null),
    pinned: false,
  };
}

export function factsOf(message: Omit<RoutableMessage, "workspaceId" | "connectionId">): RoutingFacts {
  const domains = [...message.to, ...message.cc, ...message.bcc]
    .map((entry) => (bareAddress(entry) ?? entry).split("@").pop()!.toLowerCase())
    .filter(Boolean);
  return {
    recipientDomains: [...new Set(domains)],
    senderDomain: sendingDomain(message.from).toLowerCase(),
    stream: streamOf(message.tags),
    groupId: message.groupId,
    templateId: message.templateId,
  };
}

async function namedHop(table: RoutingTable, name: string, fallback: Hop): Promise<Hop | null> {
  if (name === DEFAULT_CONNECTION) return fallback;
  const connection = table.connections.find((candidate) => candidate.name === name);
  return connection ? hopOf(connection) : null;
}

/** The bound connection, or none when it was deleted since (the message then fails, saying so). */
async function pinnedHops(table: RoutingTable, connectionId: string, fallback: Hop): Promise<Hop[]> {
  if (connectionId === DEFAULT_CONNECTION) return [fallback];
  const connection = table.connections.find((candidate) => candidate.id === connectionId);
  return connection ? [await hopOf(connection)] : [];
}
