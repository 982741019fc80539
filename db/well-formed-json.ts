/**
 * JSON text PostgreSQL accepts for json and jsonb. JSON.stringify writes a lone UTF-16 surrogate
 * (say "\ud800" from a request body) as that escape, which PostgreSQL refuses ("unsupported Unicode
 * escape sequence"): a 500 for whatever the client sent. Such strings become well-formed (U+FFFD),
 * as a text parameter's would. A replacer making every string well-formed costs a call per value, so
 * it only runs when the plain JSON holds such an escape (or an escaped backslash followed by one's
 * text: harmless, same result).
 */
export function wellFormedJson(value: unknown): string {
  const json = JSON.stringify(value);
  if (!/\\ud[89a-f]/i.test(json)) return json;
  return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === "string" ? inner.toWellFormed() : inner));
}
