/** One group's write runs at a time per committer; entries arriving meanwhile queue up for the next. */
const MAX_IN_FLIGHT = 1;
/** Entries per group: a burst is split rather than written as one huge statement. */
const MAX_GROUP = 200;

interface Waiting<In, Out> {
  entry: In;
  resolve(result: Out): void;
  reject(error: unknown): void;
}

/**
 * Group commit without a timer (docs/delivery.md "Crash safety"): an entry is written at once when no
 * group is being written, else with the entries that arrived meanwhile, in the next group as soon as
 * the running one finishes. An entry never waits for company, only for the group already running, so
 * its wait is at most two write durations (the one running, then its own), while the statements per
 * entry drop to about 1/group size as the rate grows. A failed group (one bad entry, or a deadlock
 * with another process's group) is retried entry by entry, so one entry's error stays its own.
 */
export class GroupCommitter<In, Out> {
  private waiting: Waiting<In, Out>[] = [];
  private inFlight = 0;

  /**
   * `writeGroup` answers the entries' results in their order. `limit.weigh` and `limit.maxWeight` cap a
   * group by size as well as by count (single sends: their bodies), so a burst of large entries is
   * split rather than written as one statement of gigabytes; an entry heavier than the cap goes alone.
   */
  constructor(
    private readonly writeGroup: (entries: In[]) => Promise<Out[]>,
    private readonly limit: { weigh: (entry: In) => number; maxWeight: number } | null = null,
  ) {}

  /** Resolves with the entry's result once its group is written. */
  submit(entry: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.waiting.push({ entry, resolve, reject });
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.waiting.length > 0) {
      const group = this.waiting.splice(0, this.groupSize());
      this.inFlight++;
      void this.write(group).finally(() => {
        this.inFlight--;
        this.flush();
      });
    }
  }

  /** How many of the waiting entries the next group takes: at least one, at most MAX_GROUP, within the weight cap. */
  private groupSize(): number {
    const count = Math.min(this.waiting.length, MAX_GROUP);
    if (!this.limit) return count;
    let weight = 0;
    for (let i = 0; i < count; i++) {
      weight += this.limit.weigh(this.waiting[i].entry);
      if (weight > this.limit.maxWeight) return Math.max(i, 1);
    }
    return count;
  }

  private async write(group: Waiting<In, Out>[]): Promise<void> {
    try {
      const results = await this.writeGroup(group.map((waiting) => waiting.entry));
      group.forEach((waiting, index) => waiting.resolve(results[index]));
      return;
    } catch (error) {
      if (group.length === 1) return group[0].reject(error);
    }
    for (const waiting of group) {
      try {
        waiting.resolve((await this.writeGroup([waiting.entry]))[0]);
      } catch (error) {
        waiting.reject(error);
      }
    }
  }
}

/** One committer per database object (so tests with their own database get theirs). */
export function committerPerDatabase<Db extends object, C>(create: (db: Db) => C): (db: Db) => C {
  const committers = new WeakMap<Db, C>();
  return (db) => {
    let committer = committers.get(db);
    if (!committer) committers.set(db, (committer = create(db)));
    return committer;
  };
}
