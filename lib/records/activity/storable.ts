// PostgreSQL refuses NUL and lone surrogates, and a very deep body overflows jsonb's parser: any one would fail
// the whole batched insert. One walk, linear in what is kept.

export const MAX_LOGGED_STRING = 2_000;
export const MAX_LOGGED_DEPTH = 8;
/** Characters (strings and keys) kept per logged body; the rest is replaced by a marker. */
export const MAX_LOGGED_CHARACTERS = 100_000;
const MAX_ITEMS = 1_000;
const MAX_KEYS = 200;

const UNSTORABLE = /[\0\uD800-\uDFFF]/;

/** NUL and lone surrogates become U+FFFD; everything else is kept as it is. */
export function storableText(value: string): string {
  return UNSTORABLE.test(value) ? value.replaceAll("\0", "\uFFFD").toWellFormed() : value;
}

export function storableLine(value: string): string {
  return storableText(value.length > MAX_LOGGED_STRING ? value.slice(0, MAX_LOGGED_STRING) : value);
}

/** Bounded in depth and size; attachment contents (`contentBlob`, at any depth) become their decoded size. */
export function storableBody(value: unknown): unknown {
  return walk(value, 0, "", { left: MAX_LOGGED_CHARACTERS });
}

function walk(value: unknown, depth: number, key: string, budget: { left: number }): unknown {
  if (typeof value === "string") return loggedString(value, key, budget);
  if (value === null || typeof value !== "object") return value;
  if (budget.left <= 0) return "[omitted: the logged body is over its size cap]";
  if (depth >= MAX_LOGGED_DEPTH) return `[omitted: nested deeper than ${MAX_LOGGED_DEPTH} levels]`;
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => walk(item, depth + 1, "", budget));
  const kept: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value).slice(0, MAX_KEYS)) {
    const storableName = storableLine(name);
    budget.left -= storableName.length;
    kept[storableName] = walk(inner, depth + 1, name, budget);
  }
  return kept;
}

function loggedString(value: string, key: string, budget: { left: number }): string {
  if (key === "contentBlob") return `[base64, ${Buffer.byteLength(value.replace(/\s+/g, ""), "base64")} bytes]`;
  if (budget.left <= 0) return "[omitted]";
  // Sliced before it is cleaned: a cut through a surrogate pair leaves a lone half, which is cleaned.
  const shortened =
    value.length > MAX_LOGGED_STRING
      ? `${value.slice(0, MAX_LOGGED_STRING)}… [${value.length - MAX_LOGGED_STRING} more characters]`
      : value;
  budget.left -= shortened.length;
  return storableText(shortened);
}
