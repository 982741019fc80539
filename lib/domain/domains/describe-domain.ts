import "server-only";
import { env } from "@/lib/foundation/env";
import { recordStatesFromLastCheck, type DnsRecord, type RecordCheck, type RecordState } from "./dns-records";
import type { Domain } from "./get-domain-or-throw";
import { expectedDnsRecords } from "./verify-domain";

export interface DomainRecordView extends DnsRecord {
  state: RecordState;
  detail: string | null;
}

export interface ReturnPath {
  /** BOUNCE_DOMAIN: every message's MAIL FROM is b-<token>@<host>, so bounces come back to this deployment. */
  host: string;
  type: "MX";
  note: string;
}

export interface DomainView {
  domain: Domain;
  records: DomainRecordView[];
  returnPath: ReturnPath | null;
}

/** From the check just made when `checks` is given, else as the last check left it. */
export function describeDomain(domain: Domain, checks?: RecordCheck[]): DomainView {
  const records = expectedDnsRecords(domain);
  const stored = recordStatesFromLastCheck(records, domain);
  const bounceDomain = env().BOUNCE_DOMAIN;
  return {
    domain,
    records: records.map((record, index) => {
      const check = checks?.find((candidate) => candidate.kind === record.kind);
      return { ...record, state: check?.outcome ?? stored[index], detail: check?.detail ?? null };
    }),
    returnPath: bounceDomain
      ? {
          host: bounceDomain,
          type: "MX",
          note: `Bounces and complaints return to b-<token>@${bounceDomain}; its MX points at this deployment's bounce listener (published once by the operator, not per domain).`,
        }
      : null,
  };
}
