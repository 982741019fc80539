import type { MailboxFamily, RuleMatch } from "@/db/schema/providers";

/** What a rule can look at in a message (docs/delivery.md#routing-and-failover). */
export interface RoutingFacts {
  /** Every recipient's domain (to, cc, bcc), lower-case. */
  recipientDomains: string[];
  senderDomain: string;
  /** The `stream:` tag's value, `transactional` without one. */
  stream: string;
  groupId: string | null;
  templateId: string | null;
}

export const DEFAULT_STREAM = "transactional";

/** The stream a send's tags put it in. */
export function streamOf(tags: readonly string[]): string {
  const tag = tags.find((value) => value.toLowerCase().startsWith("stream:"));
  return tag ? tag.slice("stream:".length).trim().toLowerCase() || DEFAULT_STREAM : DEFAULT_STREAM;
}

const patterns = new Map<string, RegExp>();

/** `*` stands for any run of characters, so `*.example.com` is every subdomain and `mail.*` any such host. */
export function domainMatches(pattern: string, domain: string): boolean {
  if (!pattern.includes("*")) return pattern === domain;
  let regex = patterns.get(pattern);
  if (!regex) {
    if (patterns.size > 10_000) patterns.clear();
    regex = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\-]/g, "\\$&").replace(/\*/g, ".*")}$`);
    patterns.set(pattern, regex);
  }
  return regex.test(domain);
}

/**
 * Whether every field the match gives holds. Recipient fields hold when every recipient matches: one message is one
 * hand-off, so a message to a Gmail and a Yahoo address is not routed as a Gmail message.
 */
export function matchesRule(
  match: RuleMatch,
  facts: RoutingFacts,
  familyOf: (domain: string) => MailboxFamily | null,
): boolean {
  const anyOf = (list: string[], domain: string) => list.some((pattern) => domainMatches(pattern, domain));
  if (match.recipientDomains && !facts.recipientDomains.every((domain) => anyOf(match.recipientDomains!, domain)))
    return false;
  if (match.senderDomains && !anyOf(match.senderDomains, facts.senderDomain)) return false;
  if (match.streams && !match.streams.includes(facts.stream)) return false;
  if (match.groupIds && !(facts.groupId && match.groupIds.includes(facts.groupId))) return false;
  if (match.templateIds && !(facts.templateId && match.templateIds.includes(facts.templateId))) return false;
  if (match.mailboxFamilies) {
    const families = match.mailboxFamilies;
    if (!facts.recipientDomains.every((domain) => families.includes(familyOf(domain)!))) return false;
  }
  return true;
}
