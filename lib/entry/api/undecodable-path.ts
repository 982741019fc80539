/**
 * The first segment of a raw URL path that `decodeURIComponent` refuses (`%zz`, overlong UTF-8 like
 * `%C0%AE`, a lone surrogate like `%ED%A0%80`, `%FF`), or null when every segment decodes. Next.js
 * decodes route parameters before any handler runs and answers such a path with a plain-text 500 that
 * is never logged, so proxy.ts asks this first and answers the JSON 400 itself.
 */
export function undecodableSegment(pathname: string): string | null {
  for (const segment of pathname.split("/")) {
    if (!segment.includes("%")) continue;
    try {
      decodeURIComponent(segment);
    } catch {
      return segment;
    }
  }
  return null;
}
