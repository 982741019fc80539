// What the large mailbox providers require of a sender (docs/deliverability.md#sender-requirements), as lines a
// domain's page, GET /v1/domains/:id and the history show. Types only: shared by the server and the dashboard.

export type RequirementStatus = "pass" | "warn" | "fail";

export const REQUIREMENT_IDS = [
  "spf",
  "dkim",
  "dmarc",
  "spf_alignment",
  "dkim_alignment",
  "dmarc_pass",
  "one_click_unsubscribe",
  "relay_tls",
  "complaint_rate",
  "bounce_rate",
] as const;

export type RequirementId = (typeof REQUIREMENT_IDS)[number];

export interface RequirementLine {
  id: RequirementId;
  title: string;
  status: RequirementStatus;
  /** What was found, in a sentence. */
  why: string;
  /** The exact record or setting that fixes it; null when there is nothing to change. */
  fix: string | null;
  /** The mailbox providers whose published sender rules ask for it. */
  requiredBy: string[];
}

export interface RequirementCheck {
  id: string;
  checkedAt: string;
  /** The worst line's status. */
  status: RequirementStatus;
  lines: RequirementLine[];
}

const RANK: Record<RequirementStatus, number> = { pass: 0, warn: 1, fail: 2 };

/** The worst status among the lines (pass when there are none). */
export function worstStatus(lines: Array<{ status: RequirementStatus }>): RequirementStatus {
  return lines.reduce<RequirementStatus>(
    (worst, line) => (RANK[line.status] > RANK[worst] ? line.status : worst),
    "pass",
  );
}
