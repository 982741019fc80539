// A DMARC aggregate report (RFC 7489 §7.2, Appendix C) as Postwerk keeps it (docs/deliverability.md#dmarc-reports).

export type DmarcResult = "pass" | "fail" | "none" | "neutral" | "softfail" | "temperror" | "permerror" | "policy";

export interface DmarcReportRecord {
  sourceIp: string;
  count: number;
  /** policy_evaluated/disposition: what the receiver did. */
  disposition: "none" | "quarantine" | "reject";
  /** policy_evaluated/dkim and /spf: the DMARC-aligned outcomes. */
  dkimAligned: boolean;
  spfAligned: boolean;
  headerFrom: string;
  /** auth_results: the raw outcomes (the first dkim and the spf result), null when the report has none. */
  dkimResult: DmarcResult | null;
  dkimDomain: string | null;
  spfResult: DmarcResult | null;
  spfDomain: string | null;
}

export interface DmarcReport {
  /** report_metadata */
  orgName: string;
  email: string | null;
  reportId: string;
  begin: Date;
  end: Date;
  /** policy_published */
  domain: string;
  policy: "none" | "quarantine" | "reject";
  subdomainPolicy: "none" | "quarantine" | "reject" | null;
  pct: number | null;
  adkim: "r" | "s" | null;
  aspf: "r" | "s" | null;
  records: DmarcReportRecord[];
}
