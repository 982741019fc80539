import "server-only";
import { env } from "@/lib/foundation/env";

/**
 * The bound of the SMTP kill window (docs/delivery.md "Crash safety"): at most `limit` messages of this
 * process are between "handed to the provider" and "its outcome committed". A send waits for a slot
 * before it starts and gives it back only once its outcome is recorded (or the job failed without an
 * answer), so a worker killed at any instant leaves at most `limit` messages that a relay may have
 * taken and that the retry sends again. Without it the answers queued for the group commit grow with
 * the send rate times the database's latency: unbounded when the database is slow.
 */
export class UnrecordedGate {
  private held = 0;
  private highest = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {}

  /** Runs `work` (a send and the recording of its outcome) in a slot; waits for one when all are taken. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.held >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.held++;
    this.highest = Math.max(this.highest, this.held);
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter: `held` never drops and rises again in between.
      const next = this.waiting.shift();
      if (next) next();
      else this.held--;
    }
  }

  /** Slots in use now, and the most ever in use at once (the measured side of the bound). */
  stats(): { unrecorded: number; highest: number } {
    return { unrecorded: this.held, highest: this.highest };
  }
}

/** DELIVERY_MAX_UNRECORDED, or 4 × SMTP_POOL_SIZE: room for every connection's message and the next ones' answers in the group commit. */
export function unrecordedLimit(): number {
  const values = env();
  return values.DELIVERY_MAX_UNRECORDED ?? 4 * values.SMTP_POOL_SIZE;
}

const globalForGate = globalThis as unknown as { __unrecordedGate?: UnrecordedGate };

/** The process's gate (one per process: the bound is per worker that can be killed). */
export function unrecordedGate(): UnrecordedGate {
  const limit = unrecordedLimit();
  if (globalForGate.__unrecordedGate?.limit !== limit) globalForGate.__unrecordedGate = new UnrecordedGate(limit);
  return globalForGate.__unrecordedGate;
}
