/**
 * Mail first (docs/webhooks.md#delivery): a worker process that is delivering mail lets its webhook
 * work wait, so an endpoint subscribed to every event does not slow down the mail it reports on.
 * Mail and webhooks share the process's one thread, and each webhook costs about as much CPU as the
 * delivery of a message; run side by side on a busy process, two webhooks per message would take
 * a third of the delivery rate. Instead the webhook pollers and the fan-out wait until no delivery
 * batch has been running for `settleMs` (the gap between two batches of a backlog is not "idle"),
 * and never longer than `maxWaitMs` per turn, so webhooks keep flowing at a bounded minimum even under
 * a mail flow that never pauses. Nothing is lost while they wait: their jobs stay claimed by this
 * process (well within pg-boss's expiry) and the events stay in order.
 */
export class MailFirst {
  private active = 0;
  private idleSince = 0;
  private waiters: Array<() => void> = [];
  private settleTimer: NodeJS.Timeout | undefined;

  constructor(private options: { settleMs: number; maxWaitMs: number }) {}

  /** Runs one batch of mail delivery; webhook work waits while any is running. */
  async delivering<T>(work: () => Promise<T>): Promise<T> {
    this.active++;
    clearTimeout(this.settleTimer);
    try {
      return await work();
    } finally {
      if (--this.active === 0) {
        this.idleSince = Date.now();
        this.settleTimer = setTimeout(() => this.releaseIfSettled(), this.options.settleMs);
        this.settleTimer.unref();
      }
    }
  }

  /** Resolves once mail delivery has been idle for `settleMs`, or after `maxWaitMs` at the latest. */
  whenMailIdle(): Promise<void> {
    if (this.options.maxWaitMs <= 0 || this.settled()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, this.options.maxWaitMs);
      timer.unref();
      const waiters = this.waiters;
      function done() {
        clearTimeout(timer);
        const index = waiters.indexOf(done);
        if (index >= 0) waiters.splice(index, 1);
        resolve();
      }
      this.waiters.push(done);
    });
  }

  /** Lets everything waiting go at once (the process is stopping) and waits no more. */
  stop(): void {
    this.options.maxWaitMs = 0;
    for (const release of [...this.waiters]) release();
  }

  private settled(): boolean {
    return this.active === 0 && Date.now() - this.idleSince >= this.options.settleMs;
  }

  private releaseIfSettled(): void {
    if (!this.settled()) return;
    for (const release of [...this.waiters]) release();
  }
}
