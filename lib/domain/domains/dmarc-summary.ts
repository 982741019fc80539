import "server-only";
import { and, desc, eq, gte, sql } from "drizzle-orm";
import { isIP } from "node:net";
import { getDb } from "@/db/client";
import { dmarcReportRecords as records, dmarcReports as reports } from "@/db/schema";
import { env } from "@/lib/foundation/env";
import { createResolver } from "./verify-domain";

export const DMARC_SUMMARY_DAYS = 30;

export type SourceKind = "ours" | "known" | "unknown";

export interface DmarcSource {
  sourceIp: string;
  reverseDns: string | null;
  kind: SourceKind;
  /** The known service its reverse DNS names (Google, Microsoft 365, Amazon SES…), or this deployment's path. */
  service: string | null;
  messages: number;
  passing: number;
  spfAligned: number;
  dkimAligned: number;
}

export interface DmarcSummary {
  days: number;
  reports: number;
  reporters: string[];
  /** The policy the newest report saw published; null before any report. */
  policy: string | null;
  messages: number;
  passing: number;
  /** Share of the messages passing DMARC (0–1); null without messages. */
  passRate: number | null;
  /** Messages failing DMARC by kind of source: what `p=quarantine` would send to spam and `p=reject` refuse. */
  failing: Record<SourceKind, number>;
  sources: DmarcSource[];
}

/** Reverse DNS suffixes of services that send for many domains; a source under one is known, not a stranger. */
const KNOWN_SERVICES: Array<[string, string]> = [
  ["google.com", "Google"],
  ["outlook.com", "Microsoft 365"],
  ["amazonses.com", "Amazon SES"],
  ["sendgrid.net", "SendGrid"],
  ["mailgun.net", "Mailgun"],
  ["mailgun.org", "Mailgun"],
  ["mcsv.net", "Mailchimp"],
  ["rsgsv.net", "Mailchimp"],
  ["mandrillapp.com", "Mailchimp Transactional"],
  ["sparkpostmail.com", "SparkPost"],
  ["mtasv.net", "Postmark"],
  ["zoho.com", "Zoho"],
  ["yahoo.com", "Yahoo"],
];

const under = (name: string, suffix: string) => name === suffix || name.endsWith(`.${suffix}`);

/**
 * The last 30 days of DMARC aggregate reports for a domain (docs/deliverability.md#dmarc-reports): how much of its mail
 * passes DMARC, who sends as it (this deployment's path, known services by reverse DNS, unknown sources: possible
 * spoofing), and what a stricter policy would stop. Sources by messages, most first.
 */
export async function dmarcSummary(workspaceId: string, domainId: string, now: Date): Promise<DmarcSummary> {
  const since = new Date(now.getTime() - DMARC_SUMMARY_DAYS * 86_400_000);
  const db = await getDb();
  const inRange = and(eq(reports.workspaceId, workspaceId), eq(reports.domainId, domainId), gte(reports.endAt, since));
  const seen = await db
    .select({ orgName: reports.orgName, policy: reports.policy })
    .from(reports)
    .where(inRange)
    .orderBy(desc(reports.endAt));
  const total = (column: typeof records.count | ReturnType<typeof sql>) =>
    sql<number>`coalesce(sum(${column}), 0)::int`;
  const rows = await db
    .select({
      sourceIp: records.sourceIp,
      reverseDns: sql<string | null>`max(${records.reverseDns})`,
      messages: total(records.count),
      passing: total(sql`case when ${records.dkimAligned} or ${records.spfAligned} then ${records.count} else 0 end`),
      spfAligned: total(sql`case when ${records.spfAligned} then ${records.count} else 0 end`),
      dkimAligned: total(sql`case when ${records.dkimAligned} then ${records.count} else 0 end`),
    })
    .from(records)
    .innerJoin(reports, eq(reports.id, records.reportId))
    .where(inRange)
    .groupBy(records.sourceIp)
    .orderBy(desc(total(records.count)), records.sourceIp);
  const ours = await ourSources();
  const sources = rows.map((row) => ({ ...row, ...classify(row.sourceIp, row.reverseDns, ours) }));
  const messages = sources.reduce((sum, source) => sum + source.messages, 0);
  const passing = sources.reduce((sum, source) => sum + source.passing, 0);
  const failing: Record<SourceKind, number> = { ours: 0, known: 0, unknown: 0 };
  for (const source of sources) failing[source.kind] += source.messages - source.passing;
  return {
    days: DMARC_SUMMARY_DAYS,
    reports: seen.length,
    reporters: [...new Set(seen.map((report) => report.orgName))],
    policy: seen[0]?.policy ?? null,
    messages,
    passing,
    passRate: messages > 0 ? passing / messages : null,
    failing,
    sources,
  };
}

interface OurSources {
  ips: Set<string>;
  suffix: string | null;
  service: string;
}

/** This deployment's sending path: the SMTP relay's addresses, or SES's hosts (SES and Resend send through it). */
async function ourSources(): Promise<OurSources> {
  const config = env();
  if (config.DELIVERY_PROVIDER === "ses" || config.DELIVERY_PROVIDER === "resend")
    return { ips: new Set(), suffix: "amazonses.com", service: `this deployment (${config.DELIVERY_PROVIDER})` };
  if (config.DELIVERY_PROVIDER !== "smtp" || !config.SMTP_URL) return { ips: new Set(), suffix: null, service: "" };
  const host = new URL(config.SMTP_URL).hostname.replace(/^\[|\]$/g, "");
  const service = `this deployment's relay (${host})`;
  if (isIP(host)) return { ips: new Set([host]), suffix: null, service };
  return { ips: new Set(await relayAddresses(host)), suffix: null, service };
}

/** How long the relay's addresses are reused: a domain page read must not wait for DNS (up to 5 s) every time. */
const RELAY_ADDRESSES_TTL_MS = 5 * 60_000;
let cachedRelay: { host: string; until: number; addresses: Promise<string[]> } | undefined;

/** The relay host's A and AAAA addresses, looked up once per RELAY_ADDRESSES_TTL_MS (a failed lookup finds none). */
function relayAddresses(host: string): Promise<string[]> {
  if (cachedRelay?.host === host && cachedRelay.until > Date.now()) return cachedRelay.addresses;
  const resolver = createResolver();
  const addresses = Promise.all([
    resolver.resolve4(host).catch(() => []),
    resolver.resolve6(host).catch(() => []),
  ]).then((found) => found.flat());
  cachedRelay = { host, until: Date.now() + RELAY_ADDRESSES_TTL_MS, addresses };
  return addresses;
}

function classify(
  ip: string,
  reverseDns: string | null,
  ours: OurSources,
): { kind: SourceKind; service: string | null } {
  if (ours.ips.has(ip) || (ours.suffix && reverseDns && under(reverseDns, ours.suffix)))
    return { kind: "ours", service: ours.service };
  const known = reverseDns ? KNOWN_SERVICES.find(([suffix]) => under(reverseDns, suffix)) : undefined;
  return known ? { kind: "known", service: known[1] } : { kind: "unknown", service: null };
}
