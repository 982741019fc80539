/**
 * Mail first (docs/webhooks.md#delivery): mail and webhooks share one thread, so webhook turns wait until no delivery
 * batch ran for `settleMs`; under mail that never pauses for `maxWaitMs` they trickle one at a time. Nothing is lost.
 */
export class MailFirst {
  private active = 0;
  private idleSince = 0;
  private waiters: Array<() => void> = [];
  private settleTimer: NodeJS.Timeout | undefined;
  private trickle: Promise<unknown> = Promise.resolve();

  constructor(private options: { settleMs: number; maxWaitMs: number }) {}

  /** Runs one batch of mail delivery; webhook turns wait while any is running. */
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

  /** Runs a webhook turn once mail has been idle for `settleMs`, or after `maxWaitMs` one turn at a time. */
  async afterMail<T>(turn: () => Promise<T>): Promise<T> {
    if (await this.mailIdleWithin(this.options.maxWaitMs)) return turn();
    const result = this.trickle.then(turn);
    this.trickle = result.catch(() => undefined);
    return result;
  }

  /** Lets everything waiting go at once (the process is stopping) and waits no more. */
  stop(): void {
    this.options.maxWaitMs = 0;
    for (const release of [...this.waiters]) release();
  }

  /** True once mail is idle, false when `maxWaitMs` passed first (or mail first is off: 0). */
  private mailIdleWithin(maxWaitMs: number): Promise<boolean> {
    if (maxWaitMs <= 0) return Promise.resolve(true);
    if (this.settled()) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const waiters = this.waiters;
      const finish = (idle: boolean) => {
        clearTimeout(timer);
        const index = waiters.indexOf(release);
        if (index >= 0) waiters.splice(index, 1);
        resolve(idle);
      };
      const release = () => finish(true);
      const timer = setTimeout(() => finish(false), maxWaitMs);
      timer.unref();
      waiters.push(release);
    });
  }

  private settled(): boolean {
    return this.active === 0 && Date.now() - this.idleSince >= this.options.settleMs;
  }

  private releaseIfSettled(): void {
    if (!this.settled()) return;
    for (const release of [...this.waiters]) release();
  }
}
