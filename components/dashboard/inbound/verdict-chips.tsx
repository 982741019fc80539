import { Badge, type BadgeTone } from "@/components/ui/badge";

/** The authentication and spam verdicts of an inbound mail, as the list and the message page show them. */
export interface InboundVerdicts {
  spf: string;
  dkim: string;
  dmarc: string;
  arc?: string;
  spamStatus: string;
  spamScore: number | null;
}

const GOOD = new Set(["pass", "clean", "ham"]);
const BAD = new Set(["fail", "permerror", "spam", "reject"]);
const UNSURE = new Set(["softfail", "temperror", "neutral", "policy", "error"]);

/** pass reads green, fail red, a soft or temporary answer amber, none or not checked grey. */
export function verdictTone(value: string): BadgeTone {
  const verdict = value.toLowerCase();
  if (GOOD.has(verdict)) return "success";
  if (BAD.has(verdict)) return "danger";
  if (UNSURE.has(verdict)) return "warning";
  return "neutral";
}

/** "not_checked" → "not checked": the stored values are codes, the chips are read by people. */
export function verdictWords(value: string): string {
  return value.replace(/_/g, " ");
}

/** What each check means, for the message page (docs/inbound.md). */
export const VERDICT_MEANINGS = {
  spf: "SPF: was the sending server allowed to send for the envelope sender's domain (its SPF record)?",
  dkim: "DKIM: does a signature of the mail verify against the signing domain's published key, unchanged on the way?",
  dmarc:
    "DMARC: does SPF or DKIM pass for a domain aligned with the From address, as the From domain's DMARC policy asks?",
  arc: "ARC: did the forwarders on the way vouch for the checks they saw (useful when a list or forward breaks SPF or DKIM)?",
  spam: "Spam: SpamAssassin's score when SPAMD_URL is set, against the route's threshold; not checked without it.",
} as const;

function spamLabel(verdicts: InboundVerdicts): string {
  if (verdicts.spamStatus === "not_checked") return "spam not checked";
  const score = verdicts.spamScore === null ? "" : ` ${verdicts.spamScore.toFixed(1)}`;
  return `spam ${verdictWords(verdicts.spamStatus)}${score}`;
}

/** SPF, DKIM, DMARC and spam as small chips: "SPF pass", "DMARC fail", "spam not checked". */
export function VerdictChips({ verdicts }: { verdicts: InboundVerdicts }) {
  const chips: Array<[string, string, BadgeTone]> = [
    ["spf", `SPF ${verdictWords(verdicts.spf)}`, verdictTone(verdicts.spf)],
    ["dkim", `DKIM ${verdictWords(verdicts.dkim)}`, verdictTone(verdicts.dkim)],
    ["dmarc", `DMARC ${verdictWords(verdicts.dmarc)}`, verdictTone(verdicts.dmarc)],
    ["spam", spamLabel(verdicts), verdicts.spamStatus === "not_checked" ? "neutral" : verdictTone(verdicts.spamStatus)],
  ];
  return (
    <span className="flex flex-wrap gap-1" data-testid="verdicts">
      {chips.map(([key, label, tone]) => (
        <span key={key} data-testid={`verdict-${key}`}>
          <Badge tone={tone}>{label}</Badge>
        </span>
      ))}
    </span>
  );
}

/** Received (actions ran) or Quarantined (stored, no actions, no webhooks), with the reason on hover. */
export function InboundStatusBadge({ status, reason }: { status: string; reason?: string | null }) {
  const quarantined = status === "QUARANTINED";
  return (
    <span title={reason ?? undefined} data-testid="inbound-status" data-status={status}>
      <Badge tone={quarantined ? "warning" : "success"}>{quarantined ? "Quarantined" : "Received"}</Badge>
    </span>
  );
}
