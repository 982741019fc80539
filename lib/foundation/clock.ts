// "Now" where time decides a rule (scheduled sends), so tests move it instead of sleeping; pg-boss timing uses the database's clock.
let current: () => Date = () => new Date();

export function now(): Date {
  return current();
}

/** Tests only: a fixed or moving clock; `null` goes back to the wall clock. */
export function setClock(clock: (() => Date) | null): void {
  current = clock ?? (() => new Date());
}
