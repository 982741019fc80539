/** The rows of db.execute on either driver (postgres.js answers an array, PGlite an object with rows). */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
