import type { InboundRouteKind } from "@/db/schema/inbound";

// Pure: what a route's pattern means. One place reads patterns, so the API, the dashboard and the matcher agree.

export interface RoutePattern {
  /** As stored and shown: lower-cased. */
  pattern: string;
  kind: InboundRouteKind;
  /** The local part (`support`), the part before `+{hash}` for plus routes; null for catch_all. */
  localPart: string | null;
  domain: string;
}

// RFC 5322 atext and dots, without `*`, `{` and `}`, which patterns use for themselves.
const LOCAL = /^[a-z0-9!#$%&'/=?^_`|~+.-]+$/;
const HASH = "+{hash}";

/** The pattern read, or a sentence saying what is wrong with it. */
export function parseRoutePattern(input: string): RoutePattern | string {
  const pattern = input.trim().toLowerCase().replace(/\.$/, "");
  const at = pattern.lastIndexOf("@");
  if (at <= 0 || at === pattern.length - 1)
    return "must be an address pattern: support@in.example.com, support+{hash}@in.example.com or *@in.example.com";
  const local = pattern.slice(0, at);
  const domain = pattern.slice(at + 1);
  if (local === "*") return { pattern, kind: "catch_all", localPart: null, domain };
  if (local.endsWith(HASH)) {
    const base = local.slice(0, -HASH.length);
    if (!isLocalPart(base) || base.includes("+")) return `has "${base}" before +{hash}: a plain local part is needed`;
    return { pattern, kind: "plus", localPart: base, domain };
  }
  if (!isLocalPart(local)) return `has "${local}" as its local part: use letters, digits and . _ - + (or * for any)`;
  return { pattern, kind: "exact", localPart: local, domain };
}

function isLocalPart(local: string): boolean {
  return (
    local.length > 0 &&
    local.length <= 64 &&
    !local.startsWith(".") &&
    !local.endsWith(".") &&
    !local.includes("..") &&
    LOCAL.test(local)
  );
}
