import "server-only";
import { env } from "@/lib/foundation/env";
import { processSingleton } from "@/lib/foundation/process-singleton";

/**
 * The bound of the webhook kill window (docs/webhooks.md#delivery): at most `limit` requests of this
 * process are between "claimed to be sent" and "their attempts committed". A group of deliveries
 * takes as many slots as it has deliveries before it is claimed and gives them back once its attempts
 * are recorded, so a worker killed at any instant leaves at most `limit` webhooks a receiver may have
 * had and that go again (with the same webhook-id). Groups wait in arrival order.
 */
export class WebhookUnrecordedGate {
  private held = 0;
  private highest = 0;
  private readonly waiting: Array<{ slots: number; resolve: () => void }> = [];

  constructor(readonly limit: number) {}

  /** Runs `work` holding `slots` (at most `limit`) slots; waits while they are not free. */
  async run<T>(slots: number, work: () => Promise<T>): Promise<T> {
    if (slots > this.limit) throw new Error(`a group of ${slots} exceeds the gate's ${this.limit} slots`);
    if (this.waiting.length > 0 || this.held + slots > this.limit) await new Promise<void>((resolve) => this.waiting.push({ slots, resolve }));
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

  /** Slots in use now, and the most ever in use at once (the measured side of the bound). */
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
