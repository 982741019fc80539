// Pure: the sender-requirement lines from what DNS answered, how this deployment sends, and the recent rates
// (docs/deliverability.md#sender-requirements). The I/O is check-requirements.ts's.
import { getDomain } from "tldts";
import { dnsRecordsFor, judgeRecord, spfMechanismFor, tags, type DomainKeys } from "../dns-records";
import type { TxtLookup } from "../lookup-txt";
import { mergeSpfRecord } from "../merge-spf.shared";
import type { RequirementLine } from "./requirement-lines.shared";

export interface RequirementInput {
  domain: DomainKeys;
  spf: TxtLookup;
  dkim: TxtLookup;
  /** `_dmarc.<domain>`, and `_dmarc.<organizational domain>` when the domain is a subdomain without its own. */
  dmarc: { host: string; lookup: TxtLookup };
  sending: {
    provider: "local" | "smtp" | "resend" | "ses";
    smtpUrl?: string;
    smtpRejectUnauthorized: boolean;
    bounceDomain?: string;
    appUrl: string;
  };
  /** Live mail of the last 30 days (the workspace's, every domain of it). */
  rates: { sent: number; delivered: number; bounced: number; complained: number };
}

const ALL = ["Gmail", "Yahoo", "Microsoft"];
/** Below this many messages a rate says nothing. */
export const MIN_MESSAGES_FOR_RATES = 100;

type Line = Omit<RequirementLine, "id" | "title" | "requiredBy">;
const pass = (why: string): Line => ({ status: "pass", why, fix: null });
const warn = (why: string, fix: string | null): Line => ({ status: "warn", why, fix });
const fail = (why: string, fix: string | null): Line => ({ status: "fail", why, fix });
/** What check-requirements.ts passes as every lookup when DOMAIN_VERIFICATION=off. */
export const DNS_OFF = "DOMAIN_VERIFICATION=off";
const failedLookup = (lookup: { error: string }, name: string): Line =>
  lookup.error === DNS_OFF
    ? warn(`DNS is not checked here (DOMAIN_VERIFICATION=off), so ${name} is not either.`, "DOMAIN_VERIFICATION=dns")
    : warn(`The DNS lookup of ${name} failed (${lookup.error}); it is checked again later.`, null);

/** The organizational domain (example.co.uk for mail.example.co.uk), for DMARC's relaxed alignment. */
export function organizationalDomain(name: string): string {
  return (getDomain(name, { allowPrivateDomains: true }) ?? name).toLowerCase();
}

const aligned = (a: string, b: string) => organizationalDomain(a) === organizationalDomain(b);

export function judgeRequirements(input: RequirementInput): RequirementLine[] {
  const spf = spfLine(input);
  const dkim = dkimLine(input);
  const spfAlignment = spfAlignmentLine(input);
  const dkimAlignment = dkimAlignmentLine(input, dkim);
  const lines: Array<[RequirementLine["id"], string, Line]> = [
    ["spf", "SPF record names the sending path", spf],
    ["dkim", "DKIM key published", dkim],
    ["dmarc", "DMARC record", dmarcLine(input)],
    ["spf_alignment", "Return path aligned with From (SPF)", spfAlignment],
    ["dkim_alignment", "DKIM signature aligned with From", dkimAlignment],
    ["dmarc_pass", "DMARC passes", dmarcPassLine(spf, spfAlignment, dkimAlignment)],
    ["one_click_unsubscribe", "One-click unsubscribe (RFC 8058)", unsubscribeLine(input)],
    ["relay_tls", "TLS to the relay", tlsLine(input)],
    ["complaint_rate", "Spam complaint rate (30 days)", complaintLine(input)],
    ["bounce_rate", "Bounce rate (30 days)", bounceLine(input)],
  ];
  return lines.map(([id, title, line]) => ({ id, title, ...line, requiredBy: ALL }));
}

function spfLine({ domain, spf, sending }: RequirementInput): Line {
  if ("error" in spf) return failedLookup(spf, domain.name);
  const mechanism = spfMechanismFor(sending.provider, sending.smtpUrl);
  const expected = dnsRecordsFor(domain, mechanism)[0];
  const records = spf.records.filter((text) => /^v=spf1(\s|$)/i.test(text.trim()));
  const judged = judgeRecord(expected, spf.records);
  if (judged.outcome === "missing")
    return fail(`${domain.name} publishes no SPF record.`, `TXT ${domain.name} "${expected.value}"`);
  if (records.length > 1) return fail(`${domain.name} publishes ${records.length} SPF records.`, judged.detail);
  const record = records[0].trim();
  if (/\s\+?all$/i.test(record))
    return fail(
      `The SPF record ends in "+all": anyone may send as ${domain.name}.`,
      record.replace(/\+?all$/i, "~all"),
    );
  if (judged.outcome === "wrong value")
    return fail(
      `The SPF record does not name ${mechanism}, the path this deployment sends through.`,
      `TXT ${domain.name} "${mergeSpfRecord(record, expected.value)}"`,
    );
  if (/\s\?all$/i.test(record))
    return warn(`The SPF record ends in "?all", which asks receivers for nothing.`, record.replace(/\?all$/i, "~all"));
  return pass(mechanism ? `The SPF record names ${mechanism}.` : `${domain.name} publishes an SPF record.`);
}

function dkimLine({ domain, dkim, sending }: RequirementInput): Line {
  const host = `${domain.dkimSelector}._domainkey.${domain.name}`;
  if ("error" in dkim) return failedLookup(dkim, host);
  const expected = dnsRecordsFor(domain, null)[1];
  const judged = judgeRecord(expected, dkim.records);
  const record = `TXT ${host} "${expected.value}"`;
  if (sending.provider === "resend")
    return pass(`Resend signs with the key of the domain verified in its own dashboard, not with ${host}.`);
  if (judged.outcome === "missing") return fail(`Nothing is published at ${host}.`, record);
  if (judged.outcome === "wrong value") return fail(`${host} holds another public key than ours.`, record);
  return pass(`${host} holds the public key this deployment signs with.`);
}

function dmarcLine({ domain, dmarc }: RequirementInput): Line {
  if ("error" in dmarc.lookup) return failedLookup(dmarc.lookup, dmarc.host);
  const fix = `TXT _dmarc.${domain.name} "v=DMARC1; p=none; rua=mailto:dmarc@${domain.name}"`;
  const records = dmarc.lookup.records.filter((text) => /^v=DMARC1\s*(;|$)/i.test(text.trim()));
  if (records.length === 0) return fail(`Nothing is published at ${dmarc.host}.`, fix);
  if (records.length > 1)
    return fail(`${dmarc.host} publishes ${records.length} DMARC records; receivers ignore them all.`, fix);
  const inherited = dmarc.host !== `_dmarc.${domain.name}`;
  const policy = tags(records[0]).get(inherited ? "sp" : "p") ?? tags(records[0]).get("p");
  if (!policy || !["none", "quarantine", "reject"].includes(policy.toLowerCase()))
    return fail(`${dmarc.host} has no valid p= policy: "${records[0]}".`, fix);
  const from = inherited ? ` (inherited from ${dmarc.host})` : "";
  if (policy.toLowerCase() === "none")
    return pass(
      `Policy p=none${from}: enough for Gmail, Yahoo and Microsoft; move to quarantine once the reports show only your own sources.`,
    );
  return pass(`Policy p=${policy.toLowerCase()}${from}.`);
}

/** The domain SPF is checked against (MAIL FROM), by provider. */
function spfAlignmentLine({ domain, sending }: RequirementInput): Line {
  if (sending.provider === "local") return pass("The local provider hands mail to no one; nothing to align.");
  if (sending.provider === "ses" || sending.provider === "resend")
    return warn(
      `${sending.provider === "ses" ? "SES" : "Resend"} sets the return path; unless it is a subdomain of ${domain.name}, SPF passes for the provider's domain and DMARC rests on DKIM alone.`,
      sending.provider === "ses"
        ? `Set a custom MAIL FROM domain in SES, e.g. bounce.${domain.name}.`
        : `Publish the records Resend lists for send.${domain.name}.`,
    );
  if (!sending.bounceDomain) return pass(`MAIL FROM is the From address itself, at ${domain.name}.`);
  if (aligned(sending.bounceDomain, domain.name))
    return pass(`MAIL FROM is at ${sending.bounceDomain}, under ${organizationalDomain(domain.name)}.`);
  return warn(
    `MAIL FROM is at BOUNCE_DOMAIN ${sending.bounceDomain}, not under ${organizationalDomain(domain.name)}: SPF cannot align, so DMARC rests on DKIM alone.`,
    `A BOUNCE_DOMAIN under the domain (e.g. bounces.${domain.name}), or keep DKIM published.`,
  );
}

function dkimAlignmentLine({ domain, sending }: RequirementInput, dkim: Line): Line {
  if (sending.provider === "resend")
    return pass(`Resend signs with d=${domain.name} once the domain is verified there.`);
  if (dkim.status === "fail")
    return fail(`Mail is signed with d=${domain.name}, but receivers cannot find the key to verify it.`, dkim.fix);
  if (dkim.status === "warn")
    return warn(`Mail is signed with d=${domain.name}; its key could not be checked.`, dkim.fix);
  return pass(`Mail is signed with d=${domain.name}, the From domain.`);
}

function dmarcPassLine(spf: Line, spfAlignment: Line, dkimAlignment: Line): Line {
  if (dkimAlignment.status === "pass") return pass("DKIM passes and is aligned with From.");
  if (spf.status === "pass" && spfAlignment.status === "pass") return pass("SPF passes and is aligned with From.");
  if (dkimAlignment.status === "warn" || spf.status === "warn")
    return warn("Whether mail passes DMARC could not be confirmed: a lookup above did not answer.", null);
  return fail("Neither SPF nor DKIM passes aligned with From: mail fails DMARC.", dkimAlignment.fix ?? spf.fix);
}

function unsubscribeLine({ sending }: RequirementInput): Line {
  const url = new URL(sending.appUrl);
  const fix = "APP_URL=https://<the public address of this deployment>";
  if (url.protocol !== "https:")
    return fail(`Group mail's one-click URL is ${url.origin}/…: RFC 8058 asks for HTTPS.`, fix);
  if (/^(localhost|127\.|10\.|192\.168\.|\[?::1\]?$)/.test(url.hostname))
    return warn(`Group mail's one-click URL, ${url.origin}/…, is not reachable from the internet.`, fix);
  return pass("Group mail carries List-Unsubscribe and List-Unsubscribe-Post; a click suppresses the address at once.");
}

function tlsLine({ sending }: RequirementInput): Line {
  if (sending.provider === "ses" || sending.provider === "resend")
    return pass("The provider's API is called over HTTPS.");
  if (sending.provider === "local") return pass("The local provider hands mail to no one.");
  const url = sending.smtpUrl ? new URL(sending.smtpUrl) : null;
  if (!sending.smtpRejectUnauthorized)
    return warn(
      "The relay's certificate is not checked (SMTP_TLS_REJECT_UNAUTHORIZED=false).",
      "SMTP_TLS_REJECT_UNAUTHORIZED=true",
    );
  if (url?.protocol === "smtps:") return pass("SMTP_URL is smtps://: TLS from the first byte.");
  if (url?.searchParams.get("requireTLS") === "true") return pass("SMTP_URL requires STARTTLS (requireTLS=true).");
  return warn(
    "STARTTLS is used when the relay offers it; a relay that does not gets the mail in clear.",
    `SMTP_URL=smtps://…:465, or add ?requireTLS=true to SMTP_URL`,
  );
}

const percent = (rate: number) => `${Number((rate * 100).toFixed(rate < 0.01 ? 2 : 1))} %`;

function complaintLine({ rates }: RequirementInput): Line {
  if (rates.delivered < MIN_MESSAGES_FOR_RATES)
    return pass(`${rates.delivered} delivered in 30 days: too few to measure a rate.`);
  const rate = rates.complained / rates.delivered;
  const fix = "Send only to people who asked for it, keep unsubscribing one click away, and stop mailing the inactive.";
  const why = `${rates.complained} complaints for ${rates.delivered} delivered: ${percent(rate)}`;
  if (rate >= 0.003) return fail(`${why}, at or above Gmail's 0.3 % line.`, fix);
  if (rate >= 0.001) return warn(`${why}, above Gmail's 0.1 % guideline.`, fix);
  return pass(`${why}, under 0.1 %.`);
}

function bounceLine({ rates }: RequirementInput): Line {
  if (rates.sent < MIN_MESSAGES_FOR_RATES) return pass(`${rates.sent} sent in 30 days: too few to measure a rate.`);
  const rate = rates.bounced / rates.sent;
  const fix =
    "Confirm addresses when people sign up, and remove those that bounced (suppressions do for hard bounces).";
  const why = `${rates.bounced} bounces for ${rates.sent} sent: ${percent(rate)}`;
  if (rate >= 0.05) return fail(`${why}, at or above 5 %, where SES starts a review.`, fix);
  if (rate >= 0.02) return warn(`${why}, above 2 %.`, fix);
  return pass(`${why}, under 2 %.`);
}
