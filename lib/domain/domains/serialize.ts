import type { DomainView } from "./describe-domain";
import type { DomainSummary } from "./list-domains";
import type { RequirementCheck } from "./requirements/requirement-lines.shared";

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** A domain as GET /v1/domains lists it (docs/api.md#domains): no keys, no records. */
export function serializeDomainSummary(domain: DomainSummary) {
  return {
    id: domain.id,
    type: "Domain" as const,
    name: domain.name,
    status: domain.status,
    verifiedAt: iso(domain.verifiedAt),
    lastCheckedAt: iso(domain.lastCheckedAt),
    lastCheckError: domain.lastCheckError,
    createdAt: domain.createdAt.toISOString(),
  };
}

/**
 * One domain with the DNS records to publish and each one's state, and its newest sender-requirement check; the DKIM
 * private key never leaves the database.
 */
export function serializeDomain(view: DomainView, requirements: RequirementCheck | null = null) {
  return {
    ...serializeDomainSummary(view.domain),
    records: view.records.map((record) => ({
      kind: record.kind,
      type: record.type,
      host: record.host,
      value: record.value,
      required: record.required,
      state: record.state,
      detail: record.detail,
    })),
    returnPath: view.returnPath,
    requirements,
  };
}
