import type { DnsResolve } from "./check-authentication";

/**
 * How long an answer is reused. node:dns does not give the TTL of a TXT answer, so this is a cap below nearly every
 * published TTL of SPF, DKIM and DMARC records (minutes to hours): a change reaches the checks at most this much later
 * than it reaches the resolver in front of the MX, which caches for the full TTL anyway.
 */
export const DNS_CACHE_MS = 60_000;
const MAX_ENTRIES = 10_000;
// NXDOMAIN and "no such records" are answers too (an SPF check asks for records most domains lack); a timeout is not.
const ANSWERS = new Set(["ENOTFOUND", "ENODATA"]);

interface Entry {
  until: number;
  answer: Promise<unknown>;
}

/**
 * A resolver that asks once per name and type in DNS_CACHE_MS: a busy MX checks the same few sending domains' SPF, DKIM
 * key and DMARC policy over and over (docs/benchmarks.md, bench:inbound). Concurrent questions share one query; a failed
 * query is not kept. Each caller gets its own copy of the records.
 */
export function cachedResolver(
  resolve: DnsResolve,
  options: { maxAgeMs?: number; maxEntries?: number; now?: () => number } = {},
): DnsResolve {
  const maxAgeMs = options.maxAgeMs ?? DNS_CACHE_MS;
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  return async (name, rrtype) => {
    const key = `${rrtype} ${name.toLowerCase()}`;
    let entry = entries.get(key);
    if (!entry || entry.until <= now()) {
      entries.delete(key);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      const answer = resolve(name, rrtype);
      entry = { until: now() + maxAgeMs, answer };
      entries.set(key, entry);
      const kept = entry;
      answer.catch((error: NodeJS.ErrnoException) => {
        if (!ANSWERS.has(error?.code ?? "") && entries.get(key) === kept) entries.delete(key);
      });
    }
    return structuredClone(await entry.answer);
  };
}
