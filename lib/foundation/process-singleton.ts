/**
 * One value per process: Next.js bundles a module once per layer, so a module-level variable can exist several times,
 * but a `Symbol.for` key is process-wide. For state that is replaced or reset, keep an object here and set its fields.
 */
export function processSingleton<T>(name: string, create: () => T): T {
  const slots = globalThis as unknown as Record<symbol, T | undefined>;
  return (slots[Symbol.for(`postwerk.${name}`)] ??= create());
}
