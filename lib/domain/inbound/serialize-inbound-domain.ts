import "server-only";
import { iso } from "./serialize-time";
import type { InboundDomain } from "./get-inbound-domain";
import { inboundMxHost } from "./inbound-domain-name";
import { mxStateFromLastCheck, type MxCheck } from "./mx-check";

/** MX preference of the record we ask for: any value works with one MX; 10 is the common choice. */
export const INBOUND_MX_PRIORITY = 10;

/**
 * An inbound domain with the MX record to publish and its state: from the check just made when `check` is given,
 * else as the last check left it (a read looks nothing up).
 */
export function serializeInboundDomain(domain: InboundDomain, check?: MxCheck | null) {
  return {
    id: domain.id,
    type: "InboundDomain" as const,
    name: domain.name,
    status: domain.status,
    verifiedAt: iso(domain.verifiedAt),
    lastCheckedAt: iso(domain.lastCheckedAt),
    lastCheckError: domain.lastCheckError,
    records: [
      {
        type: "MX" as const,
        host: domain.name,
        value: inboundMxHost(),
        priority: INBOUND_MX_PRIORITY,
        state: check?.outcome ?? mxStateFromLastCheck(domain),
        detail: check?.detail ?? null,
      },
    ],
    createdAt: domain.createdAt.toISOString(),
    updatedAt: domain.updatedAt.toISOString(),
  };
}
