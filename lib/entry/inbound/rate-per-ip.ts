/**
 * Mails per sending IP per minute, counted at MAIL FROM in this process (each listener process counts its own:
 * behind several MX hosts the bound is per host). A fixed one-minute window: cheap, and a burst is at most twice it.
 */
export class RatePerIp {
  private window = 0;
  private counts = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when this mail is within the bound (and counts it). */
  take(ip: string): boolean {
    const minute = Math.floor(this.now() / 60_000);
    if (minute !== this.window) {
      this.window = minute;
      this.counts.clear();
    }
    const count = (this.counts.get(ip) ?? 0) + 1;
    this.counts.set(ip, count);
    return count <= this.limit;
  }
}
