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
 * Group commit without a timer: an entry is written at once, or with those that arrived meanwhile as soon as the running
 * group finishes, so it waits at most two writes. A failed group is retried entry by entry, so one error stays its own.
 */
export class GroupCommitter<In, Out> {
  private waiting: Waiting<In, Out>[] = [];
  private inFlight = 0;

  /** `writeGroup` answers results in entry order; `limit` also caps a group by weight (an entry over it goes alone). */
  constructor(
    private readonly writeGroup: (entries: In[]) => Promise<Out[]>,
    private readonly limit: { weigh: (entry: In) => number; maxWeight: number } | null = null,
  ) {}

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
