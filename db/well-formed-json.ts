/** JSON PostgreSQL accepts: lone surrogates become U+FFFD (the replacer runs only when the JSON holds one). */
export function wellFormedJson(value: unknown): string {
  const json = JSON.stringify(value);
  if (!/\\ud[89a-f]/i.test(json)) return json;
  return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === "string" ? inner.toWellFormed() : inner));
}
