/**
 * Next's searchParams as URLSearchParams, what the lib use cases read: `get` gives a repeated key's first value,
 * `getAll` every one (the repeatable `tag` filter).
 */
export function toSearchParams(record: Record<string, string | string[] | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(record)) {
    for (const each of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(key, each);
  }
  return params;
}
