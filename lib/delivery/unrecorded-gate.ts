import "server-only";
import { processSingleton } from "@/lib/foundation/process-singleton";
import { env } from "@/lib/foundation/env";

/**
 * At most `limit` messages of this process are between hand-off and committed outcome, so a worker killed at any
 * instant sends at most `limit` twice (docs/delivery.md "Crash safety"), however slow the database.
 */
export class UnrecordedGate {
  private held = 0;
  private highest = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {}

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

  stats(): { unrecorded: number; highest: number } {
    return { unrecorded: this.held, highest: this.highest };
  }
}

/** By default room for every connection's message and the next ones' answers in the group commit. */
export function unrecordedLimit(): number {
  const values = env();
  return values.DELIVERY_MAX_UNRECORDED ?? 4 * values.SMTP_POOL_SIZE;
}

const gateSlot = processSingleton("unrecorded-gate", () => ({}) as { gate?: UnrecordedGate });

export function unrecordedGate(): UnrecordedGate {
  const limit = unrecordedLimit();
  if (gateSlot.gate?.limit !== limit) gateSlot.gate = new UnrecordedGate(limit);
  return gateSlot.gate;
}
