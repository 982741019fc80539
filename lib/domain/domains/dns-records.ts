// Pure. SPF must name the provider that really sends; DKIM's key must match; DMARC is recommended, not required.
export type DnsRecordKind = "SPF" | "DKIM" | "DMARC";

export interface DnsRecord {
  kind: DnsRecordKind;
  type: "TXT";
  host: string;
  value: string;
  required: boolean;
}

export type RecordOutcome = "found" | "missing" | "wrong value" | "lookup failed";

export interface RecordCheck {
  kind: DnsRecordKind;
  host: string;
  required: boolean;
  outcome: RecordOutcome;
  detail: string | null;
}

export interface DomainKeys {
  name: string;
  dkimSelector: string;
  dkimPublicKey: string;
}

export function dnsRecordsFor(domain: DomainKeys, spfMechanism: string | null): DnsRecord[] {
  return [
    {
      kind: "SPF",
      type: "TXT",
      host: domain.name,
      value: `v=spf1 ${spfMechanism ? `${spfMechanism} ` : ""}~all`,
      required: true,
    },
    {
      kind: "DKIM",
      type: "TXT",
      host: `${domain.dkimSelector}._domainkey.${domain.name}`,
      value: `v=DKIM1; k=rsa; p=${domain.dkimPublicKey}`,
      required: true,
    },
    { kind: "DMARC", type: "TXT", host: `_dmarc.${domain.name}`, value: "v=DMARC1; p=none;", required: false },
  ];
}

/** Resend and SES send through amazonses.com, an SMTP relay is named by its host; the local provider needs none. */
export function spfMechanismFor(provider: "local" | "smtp" | "resend" | "ses", smtpUrl?: string): string | null {
  if (provider === "resend" || provider === "ses") return "include:amazonses.com";
  if (provider !== "smtp" || !smtpUrl) return null;
  let host: string;
  try {
    host = new URL(smtpUrl).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return null;
  }
  if (host === "" || host === "localhost" || host.startsWith("127.") || host === "::1") return null;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return `ip4:${host}`;
  if (host.includes(":")) return `ip6:${host}`;
  return `a:${host}`;
}

export function judgeRecord(expected: DnsRecord, found: string[]): Pick<RecordCheck, "outcome" | "detail"> {
  if (expected.kind === "SPF") {
    const spf = found.filter((text) => /^v=spf1(\s|$)/i.test(text.trim()));
    if (spf.length === 0) return { outcome: "missing", detail: null };
    if (spf.length > 1)
      return {
        outcome: "wrong value",
        detail: "more than one SPF record: receivers treat that as an error; merge them into one",
      };
    const wanted = expected.value
      .split(/\s+/)
      .slice(1, -1)
      .map((term) => term.toLowerCase());
    const terms = spf[0].trim().toLowerCase().split(/\s+/);
    const absent = wanted.filter((term) => !terms.includes(term));
    return absent.length === 0
      ? { outcome: "found", detail: spf[0] }
      : { outcome: "wrong value", detail: `${spf[0]} (lacks ${absent.join(" ")})` };
  }
  if (expected.kind === "DKIM") {
    const dkim = found.map(tags).filter((record) => record.has("p"));
    if (dkim.length === 0) return { outcome: "missing", detail: null };
    const wantedKey = tags(expected.value).get("p");
    const match = dkim.some((record) => record.get("p") === wantedKey);
    return match
      ? { outcome: "found", detail: null }
      : { outcome: "wrong value", detail: "a DKIM record with another public key" };
  }
  const dmarc = found.filter((text) => /^v=DMARC1\s*(;|$)/i.test(text.trim()));
  if (dmarc.length === 0) return { outcome: "missing", detail: null };
  return tags(dmarc[0]).has("p")
    ? { outcome: "found", detail: dmarc[0] }
    : { outcome: "wrong value", detail: `${dmarc[0]} (no p= policy)` };
}

/** `k=v; k2=v2` tag lists (DKIM, DMARC); whitespace inside values is folding, so it is dropped. */
export function tags(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split(";")) {
    const equals = part.indexOf("=");
    if (equals <= 0) continue;
    out.set(part.slice(0, equals).trim().toLowerCase(), part.slice(equals + 1).replace(/\s+/g, ""));
  }
  return out;
}

/** One line for lastCheckError naming every record that is not right, e.g. "DKIM missing; DMARC missing (recommended)". */
export function describeProblems(checks: RecordCheck[]): string | null {
  const problems = checks
    .filter((check) => check.outcome !== "found")
    .map(
      (check) =>
        `${check.kind} ${check.outcome}${check.required ? "" : " (recommended)"}${check.outcome === "lookup failed" && check.detail ? `: ${check.detail}` : ""}`,
    );
  return problems.length === 0 ? null : problems.join("; ");
}

/** A record's state as of the domain's last check: "unchecked" before the first one. */
export type RecordState = RecordOutcome | "unchecked";

/** From what the last check stored, so a read needs no DNS lookup. */
export function recordStatesFromLastCheck(
  records: DnsRecord[],
  domain: { lastCheckedAt: Date | null; lastCheckError: string | null },
): RecordState[] {
  if (!domain.lastCheckedAt) return records.map(() => "unchecked");
  const problems = (domain.lastCheckError ?? "").split("; ");
  const outcomes: RecordOutcome[] = ["missing", "wrong value", "lookup failed"];
  return records.map((record) => {
    const problem = problems.find((text) => text.startsWith(`${record.kind} `));
    return problem
      ? (outcomes.find((outcome) => problem.startsWith(`${record.kind} ${outcome}`)) ?? "lookup failed")
      : "found";
  });
}
