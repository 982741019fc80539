// "The database cannot be reached right now": the API answers 503, delivery keeps the outcome to record later.

const CONNECTION_ERRORS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

// SQLSTATEs that say "not now" (connection, too many connections, shutdown): the client's retry is the fix.
function isUnavailableState(code: string): boolean {
  return (
    code.startsWith("08") ||
    code === "53300" ||
    code === "53400" ||
    code === "57P01" ||
    code === "57P02" ||
    code === "57P03"
  );
}

/** The code of the first error in the cause chain that means the database is unavailable, or null. */
export function databaseUnavailableCode(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (
      typeof code === "string" &&
      (CONNECTION_ERRORS.has(code) || (/^[0-9A-Z]{5}$/.test(code) && isUnavailableState(code)))
    )
      return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
