import "server-only";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { Resolver } from "node:dns/promises";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { domains } from "@/db/schema";
import { env } from "@/lib/foundation/env";
import { AppError } from "@/lib/foundation/errors";
import {
  describeProblems,
  dnsRecordsFor,
  judgeRecord,
  spfMechanismFor,
  type DnsRecord,
  type RecordCheck,
} from "./dns-records";
import { getDomainOrThrow, type Domain } from "./get-domain-or-throw";
import { lookupTxt } from "./lookup-txt";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";

export interface DomainVerification {
  domain: Domain;
  checks: RecordCheck[];
}

/** The records this deployment asks a domain to publish (the SPF include follows the configured provider). */
export function expectedDnsRecords(domain: Domain): DnsRecord[] {
  const config = env();
  return dnsRecordsFor(domain, spfMechanismFor(config.DELIVERY_PROVIDER, config.SMTP_URL));
}

/**
 * VERIFIED needs SPF and DKIM; DMARC is optional. A missing or wrong record makes it FAILED; a failed lookup proves
 * nothing, so the status stays. DOMAIN_VERIFICATION=off verifies without a lookup.
 */
export async function verifyDomain(
  workspaceId: string,
  domainId: string,
  actor: AuditActor,
): Promise<DomainVerification> {
  const domain = await getDomainOrThrow(workspaceId, domainId);
  const now = new Date();
  if (env().DOMAIN_VERIFICATION === "off") {
    return {
      domain: await store(
        domain,
        { status: "VERIFIED", verifiedAt: domain.verifiedAt ?? now, lastCheckedAt: now, lastCheckError: null },
        actor,
      ),
      checks: [],
    };
  }
  const resolver = createResolver();
  const checks = await Promise.all(expectedDnsRecords(domain).map((record) => checkRecord(resolver, record)));
  const required = checks.filter((check) => check.required);
  const lookupFailed = required.some((check) => check.outcome === "lookup failed");
  const verified = required.every((check) => check.outcome === "found");
  const status = verified ? "VERIFIED" : lookupFailed ? domain.status : "FAILED";
  const updated = await store(
    domain,
    {
      status,
      verifiedAt: verified
        ? domain.status === "VERIFIED" && domain.verifiedAt
          ? domain.verifiedAt
          : now
        : status === "VERIFIED"
          ? domain.verifiedAt
          : null,
      lastCheckedAt: now,
      lastCheckError: describeProblems(checks),
    },
    actor,
  );
  return { domain: updated, checks };
}

/** Stores the outcome; a check that changes the status is audited (`domain.verify`) in the same transaction. */
async function store(
  domain: Domain,
  values: Pick<Domain, "status" | "verifiedAt" | "lastCheckedAt" | "lastCheckError">,
  actor: AuditActor,
): Promise<Domain> {
  const stored = await (
    await getDb()
  ).transaction(async (tx) => {
    const [row] = await tx
      .update(domains)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(domains.workspaceId, domain.workspaceId), eq(domains.id, domain.id)))
      .returning();
    if (row.status !== domain.status) {
      await recordAudit(tx, {
        workspaceId: domain.workspaceId,
        actor,
        action: "domain.verify",
        target: { type: "domain", id: domain.id },
        before: { status: domain.status },
        after: { status: row.status, lastCheckError: row.lastCheckError },
      });
    }
    return row;
  });
  invalidateShortLivedCaches();
  return stored;
}

/** A resolver for domain checks: DNS_SERVERS when set (inbound domains check their MX with it too). */
export function createResolver(): Resolver {
  const resolver = new Resolver({ timeout: 2500, tries: 2 });
  const servers = env().DNS_SERVERS?.split(",");
  if (servers) {
    try {
      resolver.setServers(servers);
    } catch (error) {
      throw new AppError(
        "SERVICE_UNAVAILABLE",
        `DNS_SERVERS is not usable (${(error as Error).message}); give IP addresses with an optional :port.`,
      );
    }
  }
  return resolver;
}

async function checkRecord(resolver: Resolver, record: DnsRecord): Promise<RecordCheck> {
  const base = { kind: record.kind, host: record.host, required: record.required };
  const found = await lookupTxt(resolver, record.host);
  if ("error" in found) return { ...base, outcome: "lookup failed", detail: found.error };
  return { ...base, ...judgeRecord(record, found.records) };
}
