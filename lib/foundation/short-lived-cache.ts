import { processSingleton } from "@/lib/foundation/process-singleton";

/**
 * A process's short-lived cache of rows the request path reads on every call (an API key, its
 * workspace's settings, its verified sender domains), so a send does not read them from the database
 * each time. Two rules make it safe:
 *
 * - Every entry lives at most SHORT_LIVED_CACHE_MS from the moment its load STARTED: its query ran
 *   after that moment, so it saw every change committed before it. A change committed in another
 *   process (another app server, the CLI) is therefore seen by every process at most
 *   SHORT_LIVED_CACHE_MS after its commit: the stated bound (docs/api.md#authentication).
 * - The use cases that change a cached fact (revoking a key, changing a workspace's settings or
 *   sending state, a domain's verification) call `invalidateShortLivedCaches()` after their commit,
 *   so in their own process the change holds from the next request on. A load that was under way
 *   when an invalidation happened is not kept.
 *
 * Loads are shared: concurrent requests for one key wait for one query. A failed load is not kept.
 * Entries belong to an owner (the database handle they were read from), so a test that installs
 * another database never sees the rows of the previous one.
 */

export const SHORT_LIVED_CACHE_MS = 1000;

interface Registry {
  /** Bumped by every invalidation: an entry loaded under an older generation is stale. */
  generation: number;
  caches: Set<ShortLivedCache<unknown>>;
}

/** One per process, so a key revoked by a dashboard action is not still cached for the API's routes. */
const registry = processSingleton<Registry>("short-lived-cache", () => ({ generation: 0, caches: new Set() }));

export function invalidateShortLivedCaches(): void {
  registry.generation++;
  for (const cache of registry.caches) cache.clear();
}

interface Entry<T> {
  value: Promise<T>;
  expiresAt: number;
  generation: number;
}

export class ShortLivedCache<T> {
  private owners = new WeakMap<object, Map<string, Entry<T>>>();

  constructor(private readonly maxEntries = 10_000) {
    registry.caches.add(this as ShortLivedCache<unknown>);
  }

  get(owner: object, key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    let entries = this.owners.get(owner);
    if (!entries) this.owners.set(owner, (entries = new Map()));
    const entry = entries.get(key);
    if (entry && entry.expiresAt > now && entry.generation === registry.generation) return entry.value;
    // An unbounded map would let a stream of random keys grow it: past the cap, start over.
    if (entries.size >= this.maxEntries) entries.clear();
    const fresh: Entry<T> = { value: load(), expiresAt: now + SHORT_LIVED_CACHE_MS, generation: registry.generation };
    entries.set(key, fresh);
    fresh.value.catch(() => {
      if (entries.get(key) === fresh) entries.delete(key);
    });
    return fresh.value;
  }

  clear(): void {
    this.owners = new WeakMap();
  }
}
