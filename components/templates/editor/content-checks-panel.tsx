"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, type ReactNode } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
// Types only (erased at build): the check route's findings, so the client reads what the server sends.
import type { ContentFinding, FindingSeverity } from "@/lib/domain/templates/content-checks.shared";
import type { ToolbarFeedback } from "./editor-toolbar";
import type { PreviewRequest } from "./types";

/** The answer of POST /templates/check: null when the draft does not render (the preview says why). */
export interface DraftCheckResult {
  status: "pass" | "warning" | "error";
  findings: ContentFinding[];
  locales: string[];
}

const SEVERITY: Record<FindingSeverity, { tone: BadgeTone; label: string }> = {
  error: { tone: "danger", label: "Error" },
  warning: { tone: "warning", label: "Warning" },
  info: { tone: "info", label: "Note" },
};

const STATUS_TONE: Record<DraftCheckResult["status"], BadgeTone> = {
  error: "danger",
  warning: "warning",
  pass: "success",
};

async function fetchCheck(request: PreviewRequest): Promise<DraftCheckResult | null> {
  const response = await fetch("/templates/check", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(request),
    cache: "no-store",
  });
  const isJson = response.headers.get("content-type")?.includes("application/json");
  if (!isJson)
    throw new Error(
      response.redirected
        ? "Your session ended: sign in again to check the content."
        : `The check answered ${response.status}.`,
    );
  const body = (await response.json()) as { data?: DraftCheckResult | null; error?: { message: string } };
  if (!response.ok || body.data === undefined)
    throw new Error(body.error?.message ?? `The check answered ${response.status}.`);
  return body.data;
}

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? "" : "s"}`;

function summary(findings: ContentFinding[]): string {
  const count = (severity: FindingSeverity) => findings.filter((finding) => finding.severity === severity).length;
  return [plural(count("error"), "error"), plural(count("warning"), "warning"), plural(count("info"), "note")].join(
    " · ",
  );
}

export interface ContentChecksPanelProps {
  /** The preview's request body (the draft in the shown locale, with its sample data): what is checked. */
  request: PreviewRequest;
  /** The toolbar's save feedback: each successful save runs the check again (after it, never before). */
  saveFeedback: ToolbarFeedback | null;
}

/**
 * The draft through the send-time content checks (POST /templates/check: spam score, clipping, images without alt,
 * links, subject length…) on demand and after each save; findings errors first, as the server sorts them.
 */
export function ContentChecksPanel({ request, saveFeedback }: ContentChecksPanelProps) {
  const { mutate, data, error, isPending, variables } = useMutation({ mutationFn: fetchCheck, retry: false });
  const latest = useRef(request);
  useEffect(() => {
    latest.current = request;
  });
  useEffect(() => {
    if (saveFeedback?.tone === "success") mutate(latest.current);
  }, [saveFeedback, mutate]);
  const stale = data !== undefined && !isPending && JSON.stringify(variables) !== JSON.stringify(request);

  return (
    <div data-testid="content-checks" className="min-w-0">
      <Card
        title="Content checks"
        description="What mailbox providers and spam filters may hold against the draft, in the shown locale."
        actions={
          <Button variant="secondary" onClick={() => mutate(request)} disabled={isPending} data-testid="check-content">
            {isPending ? "Checking…" : "Check content"}
          </Button>
        }
      >
        <div className="min-w-0 space-y-3" aria-busy={isPending}>
          <Status pending={isPending} error={error} result={data} stale={stale} />
          {data && data.findings.length === 0 ? <p className="text-sm text-slate-600">No findings.</p> : null}
          {data && data.findings.length > 0 ? <FindingsList findings={data.findings} /> : null}
        </div>
      </Card>
    </div>
  );
}

function Status({
  pending,
  error,
  result,
  stale,
}: {
  pending: boolean;
  error: Error | null;
  result: DraftCheckResult | null | undefined;
  stale: boolean;
}) {
  const state = pending
    ? "checking"
    : error
      ? "failed"
      : result === undefined
        ? "none"
        : result === null
          ? "not_rendered"
          : result.status;
  return (
    <div aria-live="polite" data-testid="content-checks-status" data-status={state} className="space-y-2 text-sm">
      {state === "checking" ? <p className="text-slate-500">Checking…</p> : null}
      {state === "none" ? (
        <p className="text-slate-500">
          Not checked yet: Check content runs the draft through the checks; each save runs them too.
        </p>
      ) : null}
      {error && !pending ? <Note tone="danger">{error.message}</Note> : null}
      {result === null && !pending ? (
        <Note tone="warning">The draft does not render: see the preview&apos;s problems.</Note>
      ) : null}
      {result && !pending ? (
        <p className="flex flex-wrap items-center gap-2 text-slate-700">
          <Badge tone={STATUS_TONE[result.status]}>{result.status}</Badge>
          <span>{summary(result.findings)}</span>
        </p>
      ) : null}
      {stale ? (
        <p className="text-xs text-amber-700">The draft has changed since: check again for its current content.</p>
      ) : null}
    </div>
  );
}

function FindingsList({ findings }: { findings: ContentFinding[] }) {
  return (
    <ul aria-label="Content findings" className="divide-y divide-slate-200 rounded-md ring-1 ring-slate-200 ring-inset">
      {findings.map((finding, index) => (
        <li
          key={`${finding.rule}-${finding.locale ?? ""}-${index}`}
          data-testid="content-finding"
          data-rule={finding.rule}
          data-severity={finding.severity}
          className="grid grid-cols-[4.75rem_minmax(0,1fr)] items-start gap-x-3 gap-y-1 px-3 py-2 text-sm"
        >
          <span>
            <Badge tone={SEVERITY[finding.severity].tone}>{SEVERITY[finding.severity].label}</Badge>
          </span>
          <div className="min-w-0">
            <p className="break-words text-slate-800">{finding.message}</p>
            <p className="mt-0.5 flex flex-wrap gap-x-2 text-xs text-slate-500">
              <code className="font-mono">{finding.rule}</code>
              {finding.locale ? <span data-testid="content-finding-locale">in {finding.locale}</span> : null}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}

function Note({ tone, children }: { tone: "warning" | "danger"; children: ReactNode }) {
  const style = tone === "danger" ? "bg-red-50 text-red-800 ring-red-200" : "bg-amber-50 text-amber-900 ring-amber-200";
  return <p className={`rounded-md px-2 py-1 text-xs ring-1 ring-inset ${style}`}>{children}</p>;
}
