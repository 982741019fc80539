import "server-only";
import type { Resolver } from "node:dns/promises";

// What the last MX check found, stored as lastCheckError ("MX missing", "MX wrong value: …") so a read needs no lookup.
export type MxOutcome = "found" | "missing" | "wrong value" | "lookup failed";
export type MxState = MxOutcome | "unchecked";

export interface MxCheck {
  outcome: MxOutcome;
  /** What the lookup said: the exchanges found, or the failure. */
  detail: string | null;
}

// NXDOMAIN and "no MX records" mean the record is not published; anything else is a failed lookup.
const ABSENT = new Set(["ENOTFOUND", "ENODATA"]);

/** Found when one of the domain's MX records names `mxHost` (other exchanges beside it are reported, not refused). */
export async function checkMx(resolver: Resolver, domain: string, mxHost: string): Promise<MxCheck> {
  try {
    const exchanges = (await resolver.resolveMx(domain))
      .sort((a, b) => a.priority - b.priority)
      .map((record) => record.exchange.toLowerCase().replace(/\.$/, ""));
    if (exchanges.length === 0) return { outcome: "missing", detail: null };
    const listed = exchanges.join(", ");
    return exchanges.includes(mxHost)
      ? { outcome: "found", detail: listed }
      : { outcome: "wrong value", detail: `points at ${listed}, not ${mxHost}` };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (ABSENT.has(code)) return { outcome: "missing", detail: null };
    return { outcome: "lookup failed", detail: `${code || "error"} looking up ${domain}` };
  }
}

/** The line stored as lastCheckError: null when found. */
export function describeMxCheck(check: MxCheck): string | null {
  if (check.outcome === "found") return null;
  return `MX ${check.outcome}${check.detail ? `: ${check.detail}` : ""}`;
}

/** The state as of the last check, from what it stored. */
export function mxStateFromLastCheck(domain: { lastCheckedAt: Date | null; lastCheckError: string | null }): MxState {
  if (!domain.lastCheckedAt) return "unchecked";
  if (!domain.lastCheckError) return "found";
  const outcomes: MxOutcome[] = ["missing", "wrong value", "lookup failed"];
  return outcomes.find((outcome) => domain.lastCheckError!.startsWith(`MX ${outcome}`)) ?? "lookup failed";
}
