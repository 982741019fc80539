/** An SPF record a mailbox provider typically already published, for the domain page's example. */
export const EXAMPLE_EXISTING_SPF = "v=spf1 include:_spf.google.com ~all";

/**
 * One `v=spf1` record only (RFC 7208 §4.5: two fail for every sender), so ours is merged in: our missing mechanisms
 * before its `all` term, whose qualifier stays.
 */
export function mergeSpfRecord(existing: string, ours: string): string {
  const terms = existing.trim().split(/\s+/);
  const have = new Set(terms.map((term) => term.toLowerCase()));
  const missing = ours
    .trim()
    .split(/\s+/)
    .slice(1)
    .filter((term) => !/^[-~+?]?all$/i.test(term) && !have.has(term.toLowerCase()));
  const allAt = terms.findIndex((term) => /^[-~+?]?all$/i.test(term));
  const at = allAt === -1 ? terms.length : allAt;
  return [...terms.slice(0, at), ...missing, ...terms.slice(at)].join(" ");
}

/** Our record's mechanisms (what an existing record would need), empty when any SPF record will do. */
export function spfAdditions(ours: string): string[] {
  return ours
    .trim()
    .split(/\s+/)
    .slice(1)
    .filter((term) => !/^[-~+?]?all$/i.test(term));
}
