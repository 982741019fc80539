"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { FormMessage } from "@/components/ui/field";
import type { DnsRecord, RecordCheck, RecordOutcome } from "@/lib/domain/domains/dns-records";

type VerifyState = FormState<{ status: string; lastCheckError: string | null; checks: RecordCheck[] }>;

const OUTCOME_TONES: Record<RecordOutcome, BadgeTone> = {
  found: "success",
  missing: "danger",
  "wrong value": "danger",
  "lookup failed": "warning",
};

const noVerify = async (): Promise<VerifyState> => ({});

/**
 * The records to publish, each with copy buttons, and (for admins) the verify button: its answer
 * adds a result column, record by record. Records are laid out as cards so long DKIM keys wrap on phones.
 */
export function DomainRecords({
  domainId,
  records,
  verifyAction,
}: {
  domainId: string;
  records: DnsRecord[];
  verifyAction?: (previous: VerifyState, form: FormData) => Promise<VerifyState>;
}) {
  const [state, submit, pending] = useActionState<VerifyState, FormData>(verifyAction ?? noVerify, {});
  const verified = state.ok ? state : null;
  const checkOf = (kind: string) => verified?.checks.find((check) => check.kind === kind);
  return (
    <div className="space-y-4">
      {verifyAction ? (
        <form action={submit} className="flex flex-wrap items-center gap-3">
          <input type="hidden" name="id" value={domainId} />
          <Button type="submit" disabled={pending}>
            {pending ? "Checking DNS…" : "Verify DNS records"}
          </Button>
          <p className="text-xs text-slate-500">
            Looks the records up now. DNS changes can take a while to be visible.
          </p>
        </form>
      ) : null}
      {state.error ? <FormMessage tone="error">{state.error}</FormMessage> : null}
      {verified?.status ? (
        <div data-testid="verify-result">
          <FormMessage tone={verified.status === "VERIFIED" ? "success" : "error"}>
            {verified.status === "VERIFIED"
              ? "Verified: SPF and DKIM are in place."
              : `Not verified: ${verified.lastCheckError ?? "a record is missing"}.`}
            {verified.status === "VERIFIED" && verified.lastCheckError
              ? ` Still to do: ${verified.lastCheckError}.`
              : null}
            {verified.checks.length === 0 ? " (DNS checks are turned off on this server.)" : null}
          </FormMessage>
        </div>
      ) : null}
      <ul className="space-y-3">
        {records.map((record) => {
          const check = checkOf(record.kind);
          return (
            <li
              key={record.kind}
              className="rounded-md border border-slate-200 p-3"
              data-testid={`record-${record.kind}`}
            >
              <div className="flex flex-wrap items-center gap-2">
                <span className="text-sm font-semibold text-slate-900">{record.kind}</span>
                <Badge>{record.type}</Badge>
                <Badge tone={record.required ? "info" : "neutral"}>
                  {record.required ? "required" : "recommended"}
                </Badge>
                {check ? (
                  <span data-testid={`record-${record.kind}-outcome`}>
                    <Badge tone={OUTCOME_TONES[check.outcome]}>{check.outcome}</Badge>
                  </span>
                ) : null}
              </div>
              {check?.detail ? <p className="mt-1 text-xs break-words text-slate-600">Found: {check.detail}</p> : null}
              <dl className="mt-2 grid gap-2 text-sm sm:grid-cols-[5rem_minmax(0,1fr)_auto] sm:items-start">
                <dt className="text-xs font-medium text-slate-500 sm:pt-1.5">Host</dt>
                <dd
                  className="min-w-0 rounded bg-slate-50 px-2 py-1 font-mono text-xs break-all"
                  data-testid={`record-${record.kind}-host`}
                >
                  {record.host}
                </dd>
                <dd>
                  <CopyButton value={record.host} label={`Copy ${record.kind} host`} />
                </dd>
                <dt className="text-xs font-medium text-slate-500 sm:pt-1.5">Value</dt>
                <dd
                  className="min-w-0 rounded bg-slate-50 px-2 py-1 font-mono text-xs break-all"
                  data-testid={`record-${record.kind}-value`}
                >
                  {record.value}
                </dd>
                <dd>
                  <CopyButton value={record.value} label={`Copy ${record.kind} value`} />
                </dd>
              </dl>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
