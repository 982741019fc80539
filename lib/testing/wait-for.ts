/**
 * Waits until `condition` returns a truthy value and returns that value. Tests await a condition
 * instead of sleeping a fixed time, so a slow machine only makes them slower, never wrong: the
 * timeout is generous and, when reached, the failure says what was awaited. An error thrown by
 * `condition` fails at once (a bug is not something to wait out).
 */
/** What a condition returns when it holds: `check() && value` gives the value. */
type Truthy<T> = Exclude<T, false | 0 | "" | null | undefined>;

export async function waitFor<T>(
  condition: () => T | Promise<T>,
  { what, timeout = 20_000, every = 25 }: { what: string; timeout?: number; every?: number },
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await condition();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`waitFor: timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}
