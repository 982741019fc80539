import { processSingleton } from "@/lib/foundation/process-singleton";

// Rows the request path reads on every call (an API key, workspace settings, sender domains). Safe because an entry lives
// SHORT_LIVED_CACHE_MS from when its load STARTED, so another process's commit is seen within that bound
// (docs/api.md#authentication), and the use cases that change a cached fact call `invalidateShortLivedCaches()` after
// their commit. Entries belong to an owner (the database handle), so a test's new database never sees old rows.

export const SHORT_LIVED_CACHE_MS = 1000;

interface Registry {
  /** An entry loaded under an older generation is stale. */
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
    // A stream of random keys must not grow the map without bound.
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
