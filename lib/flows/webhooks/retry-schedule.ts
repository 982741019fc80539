// Delays after each failure (docs/webhooks.md#delivery): about 28 hours in all, as patient as Svix. After the eighth
// failure the delivery fails and stays replayable.
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  10 * 3600_000,
];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** ±10 %, so endpoints that failed together are not retried in one burst. */
const JITTER = 0.1;

/** The clock of the delivery engine; tests inject one to walk the schedule without sleeping. */
export interface Clock {
  now(): Date;
  random(): number;
}

export const systemClock: Clock = { now: () => new Date(), random: Math.random };

/** The time of the next attempt after `attemptsMade` failed attempts, or null when none is left. */
export function nextAttemptAt(attemptsMade: number, clock: Clock): Date | null {
  if (attemptsMade >= MAX_ATTEMPTS) return null;
  const base = RETRY_DELAYS_MS[attemptsMade - 1];
  const jittered = base * (1 + JITTER * (2 * clock.random() - 1));
  return new Date(clock.now().getTime() + Math.round(jittered));
}
