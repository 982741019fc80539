import type { InboundRouteKind } from "@/db/schema/inbound";

// Pure: which route takes a local part. Most specific first (docs/inbound.md#routes): exact, then plus, then catch_all.

export interface MatchableRoute {
  kind: InboundRouteKind;
  localPart: string | null;
}

export interface RouteMatch<R> {
  route: R;
  /** The part after the first `+` (as sent, case kept) for a plus route; null otherwise. */
  mailboxHash: string | null;
}

/** `local` as sent (its case kept for the mailbox hash); `routes` are the domain's enabled routes. */
export function matchRoute<R extends MatchableRoute>(routes: readonly R[], local: string): RouteMatch<R> | null {
  const lower = local.toLowerCase();
  const exact = routes.find((route) => route.kind === "exact" && route.localPart === lower);
  if (exact) return { route: exact, mailboxHash: null };
  const plus = lower.indexOf("+");
  if (plus > 0) {
    const base = lower.slice(0, plus);
    const route = routes.find((candidate) => candidate.kind === "plus" && candidate.localPart === base);
    if (route) return { route, mailboxHash: local.slice(plus + 1) };
  }
  const catchAll = routes.find((route) => route.kind === "catch_all");
  return catchAll ? { route: catchAll, mailboxHash: null } : null;
}

/** `<Ada@Example.COM.>` → its local part as sent and its domain lower-cased without the trailing dot; null when not an address. */
export function splitRecipient(input: string): { local: string; domain: string } | null {
  const bare = input
    .trim()
    .replace(/^<(.*)>$/, "$1")
    .trim();
  const at = bare.lastIndexOf("@");
  if (at <= 0 || at === bare.length - 1 || bare.length > 320) return null;
  const local = bare.slice(0, at);
  const domain = bare
    .slice(at + 1)
    .toLowerCase()
    .replace(/\.$/, "");
  if (!domain || /[\s<>@]/.test(domain) || /[\s<>]/.test(local)) return null;
  return { local, domain };
}
