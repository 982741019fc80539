import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { inboundDomains } from "@/db/schema";
import { createResolver } from "@/lib/domain/domains/verify-domain";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { env } from "@/lib/foundation/env";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";
import { getInboundDomainOrThrow, type InboundDomain } from "./get-inbound-domain";
import { inboundMxHost } from "./inbound-domain-name";
import { checkMx, describeMxCheck, type MxCheck } from "./mx-check";

export interface InboundDomainVerification {
  domain: InboundDomain;
  /** The lookup just made; null with DOMAIN_VERIFICATION=off. */
  check: MxCheck | null;
}

/**
 * VERIFIED once the domain's MX names inboundMxHost(); missing or another host: FAILED (mail is refused at RCPT TO
 * again); a failed lookup proves nothing, so the status stays. DOMAIN_VERIFICATION=off verifies without a lookup.
 */
export async function verifyInboundDomain(
  workspaceId: string,
  id: string,
  actor: AuditActor,
): Promise<InboundDomainVerification> {
  const domain = await getInboundDomainOrThrow(workspaceId, id);
  const now = new Date();
  if (env().DOMAIN_VERIFICATION === "off") {
    const values = { status: "VERIFIED" as const, verifiedAt: domain.verifiedAt ?? now, lastCheckedAt: now };
    return { domain: await store(domain, { ...values, lastCheckError: null }, actor), check: null };
  }
  const check = await checkMx(createResolver(), domain.name, inboundMxHost());
  const status =
    check.outcome === "found" ? "VERIFIED" : check.outcome === "lookup failed" ? domain.status : ("FAILED" as const);
  const kept = domain.status === "VERIFIED" ? domain.verifiedAt : null;
  const verifiedAt = status === "VERIFIED" ? (kept ?? now) : null;
  const lastCheckError = describeMxCheck(check);
  const updated = await store(domain, { status, verifiedAt, lastCheckedAt: now, lastCheckError }, actor);
  return { domain: updated, check };
}

/** Stores the outcome; a check that changes the status is audited (`inbound_domain.verify`) in the same transaction. */
async function store(
  domain: InboundDomain,
  values: Pick<InboundDomain, "status" | "verifiedAt" | "lastCheckedAt" | "lastCheckError">,
  actor: AuditActor,
): Promise<InboundDomain> {
  const stored = await (
    await getDb()
  ).transaction(async (tx) => {
    const [row] = await tx
      .update(inboundDomains)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(inboundDomains.workspaceId, domain.workspaceId), eq(inboundDomains.id, domain.id)))
      .returning();
    if (row.status !== domain.status) {
      await recordAudit(tx, {
        workspaceId: domain.workspaceId,
        actor,
        action: "inbound_domain.verify",
        target: { type: "inbound_domain", id: domain.id },
        before: { status: domain.status },
        after: { status: row.status, lastCheckError: row.lastCheckError },
      });
    }
    return row;
  });
  invalidateShortLivedCaches();
  return stored;
}
