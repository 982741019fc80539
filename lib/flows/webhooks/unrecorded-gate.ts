import "server-only";
import { env } from "@/lib/foundation/env";
import { processSingleton } from "@/lib/foundation/process-singleton";

/**
 * The webhook kill window's bound (docs/webhooks.md#delivery): a group holds a slot per delivery from before its claim
 * until its attempts are recorded, so a killed worker resends at most `limit`. Groups wait in arrival order.
 */
export class WebhookUnrecordedGate {
  private held = 0;
  private highest = 0;
  private readonly waiting: Array<{ slots: number; resolve: () => void }> = [];

  constructor(readonly limit: number) {}

  /** Runs `work` holding `slots` (at most `limit`) slots; waits while they are not free. */
  async run<T>(slots: number, work: () => Promise<T>): Promise<T> {
    if (slots > this.limit) throw new Error(`a group of ${slots} exceeds the gate's ${this.limit} slots`);
    if (this.waiting.length > 0 || this.held + slots > this.limit)
      await new Promise<void>((resolve) => this.waiting.push({ slots, resolve }));
    else this.held += slots;
    this.highest = Math.max(this.highest, this.held);
    try {
      return await work();
    } finally {
      this.held -= slots;
      // Slots pass to the waiters in order, taken on their behalf, so a newcomer cannot slip in between.
      while (this.waiting.length > 0 && this.held + this.waiting[0].slots <= this.limit) {
        const next = this.waiting.shift()!;
        this.held += next.slots;
        next.resolve();
      }
    }
  }

  stats(): { unrecorded: number; highest: number } {
    return { unrecorded: this.held, highest: this.highest };
  }
}

const current = processSingleton<{ gate?: WebhookUnrecordedGate }>("webhooks.unrecorded-gate", () => ({}));

/** The process's gate, WEBHOOK_MAX_UNRECORDED slots (one per process: the bound is per worker that can be killed). */
export function webhookUnrecordedGate(): WebhookUnrecordedGate {
  const limit = env().WEBHOOK_MAX_UNRECORDED;
  if (current.gate?.limit !== limit) current.gate = new WebhookUnrecordedGate(limit);
  return current.gate;
}
