/**
 * The service's "now" where time decides a rule (scheduled sends: not in the past, at most
 * SCHEDULE_MAX_DAYS ahead). Tests move it instead of sleeping (`setClock`); everything else reads the
 * wall clock. The queue's own timing (pg-boss's startAfter) is the database's clock, not this one.
 */
let current: () => Date = () => new Date();

export function now(): Date {
  return current();
}

/** Tests only: a fixed or moving clock; `null` goes back to the wall clock. */
export function setClock(clock: (() => Date) | null): void {
  current = clock ?? (() => new Date());
}
