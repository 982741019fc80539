/**
 * One value per process, however many copies of the calling module exist: Next.js bundles a module
 * once per layer (route handlers, server actions, instrumentation), so a module-level variable would
 * exist several times in one process. `Symbol.for` keys are process-wide, so every copy finds the
 * same value. For state that is opened, replaced or reset, keep an object here and set its fields.
 */
export function processSingleton<T>(name: string, create: () => T): T {
  const slots = globalThis as unknown as Record<symbol, T | undefined>;
  return (slots[Symbol.for(`postwerk.${name}`)] ??= create());
}
