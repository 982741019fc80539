import "server-only";
import { and, eq, gte, sum } from "drizzle-orm";
import { getDb } from "@/db/client";
import { domainRequirementChecks, overviewDayCounts } from "@/db/schema";
import { now as clockNow } from "@/lib/foundation/clock";
import { env } from "@/lib/foundation/env";
import { newId } from "@/lib/foundation/ids";
import type { Domain } from "../get-domain-or-throw";
import { lookupTxt, type TxtLookup } from "../lookup-txt";
import { createResolver } from "../verify-domain";
import { DNS_OFF, judgeRequirements, organizationalDomain, type RequirementInput } from "./judge-requirements";
import { worstStatus, type RequirementCheck } from "./requirement-lines.shared";

const RATE_DAYS = 30;

/**
 * Checks a domain against the mailbox providers' sender requirements and records the outcome in its history
 * (docs/deliverability.md#sender-requirements). DNS goes through the resolver domain verification uses; with
 * DOMAIN_VERIFICATION=off nothing is looked up and the DNS lines say so.
 */
export async function checkDomainRequirements(domain: Domain, checkedAt: Date = clockNow()): Promise<RequirementCheck> {
  const config = env();
  const dns = config.DOMAIN_VERIFICATION === "off" ? notLookedUp(domain) : await lookUp(domain);
  const lines = judgeRequirements({
    domain,
    ...dns,
    sending: {
      provider: config.DELIVERY_PROVIDER,
      smtpUrl: config.SMTP_URL,
      smtpRejectUnauthorized: config.SMTP_TLS_REJECT_UNAUTHORIZED,
      bounceDomain: config.BOUNCE_DOMAIN,
      appUrl: config.APP_URL,
    },
    rates: await recentRates(domain.workspaceId, checkedAt),
  });
  const check = { id: newId("domainCheck", checkedAt), checkedAt, status: worstStatus(lines), lines };
  await (
    await getDb()
  )
    .insert(domainRequirementChecks)
    .values({ ...check, workspaceId: domain.workspaceId, domainId: domain.id });
  return { ...check, checkedAt: checkedAt.toISOString() };
}

type DnsAnswers = Pick<RequirementInput, "spf" | "dkim" | "dmarc">;

async function lookUp(domain: Domain): Promise<DnsAnswers> {
  const resolver = createResolver();
  const [spf, dkim, dmarc] = await Promise.all([
    lookupTxt(resolver, domain.name),
    lookupTxt(resolver, `${domain.dkimSelector}._domainkey.${domain.name}`),
    lookupTxt(resolver, `_dmarc.${domain.name}`),
  ]);
  // A subdomain without a record of its own is covered by its organizational domain's (RFC 7489 §6.6.3).
  const organizational = organizationalDomain(domain.name);
  if (hasNoDmarc(dmarc) && organizational !== domain.name) {
    const host = `_dmarc.${organizational}`;
    const inherited = await lookupTxt(resolver, host);
    if (!hasNoDmarc(inherited)) return { spf, dkim, dmarc: { host, lookup: inherited } };
  }
  return { spf, dkim, dmarc: { host: `_dmarc.${domain.name}`, lookup: dmarc } };
}

const hasNoDmarc = (lookup: TxtLookup) =>
  "records" in lookup && !lookup.records.some((text) => /^v=DMARC1\s*(;|$)/i.test(text.trim()));

function notLookedUp(domain: Domain): DnsAnswers {
  const off = { error: DNS_OFF };
  return { spf: off, dkim: off, dmarc: { host: `_dmarc.${domain.name}`, lookup: off } };
}

/** The workspace's live mail of the last 30 days, from the Overview's day counts (no scan of the messages). */
async function recentRates(workspaceId: string, at: Date): Promise<RequirementInput["rates"]> {
  const since = new Date(at.getTime() - RATE_DAYS * 86_400_000).toISOString().slice(0, 10);
  const c = overviewDayCounts;
  const [row] = await (
    await getDb()
  )
    .select({ sent: sum(c.sent), delivered: sum(c.delivered), bounced: sum(c.bounced), complained: sum(c.complained) })
    .from(c)
    .where(and(eq(c.workspaceId, workspaceId), eq(c.sandbox, false), gte(c.day, since)));
  return {
    sent: Number(row?.sent ?? 0),
    delivered: Number(row?.delivered ?? 0),
    bounced: Number(row?.bounced ?? 0),
    complained: Number(row?.complained ?? 0),
  };
}
