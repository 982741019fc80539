"use client";

import { useState, type ReactNode } from "react";
import { PreviewFrame } from "./preview-frame";
import { ProblemsList } from "./problems-list";
import type { PreviewProblem, PreviewResult } from "./types";

type Rendered = NonNullable<PreviewResult["rendered"]>;
type Tab = "html" | "text";

export interface PreviewPaneProps {
  result: PreviewResult | undefined;
  error: Error | null;
  pending: boolean;
  strict: boolean;
  /** The sample data does not parse: the preview uses the last data that did. */
  staleData: boolean;
  onGoTo: (problem: PreviewProblem) => void;
  /** Beside another pane (the studio's variant next to the default): its frame's title and tab ids name the locale. */
  locale?: string;
}

/**
 * The rendered subject, From, Reply-To, HTML (sandboxed frame) and text part of the draft, exactly as
 * a send would produce them. When the draft stops rendering, the last rendering stays visible, marked
 * as such, under the list of problems.
 */
export function PreviewPane({ result, error, pending, strict, staleData, onGoTo, locale }: PreviewPaneProps) {
  const suffix = locale ? `-${locale}` : "";
  const [tab, setTab] = useState<Tab>("html");
  const [lastRendered, setLastRendered] = useState<Rendered | null>(result?.rendered ?? null);
  if (result?.rendered && result.rendered !== lastRendered) setLastRendered(result.rendered);
  const shown = result?.rendered ?? lastRendered;
  const outdated = Boolean(result && !result.rendered && lastRendered);

  return (
    <div className="space-y-3" aria-busy={pending}>
      <div className="flex min-h-5 flex-wrap items-center gap-2 text-xs text-slate-500" aria-live="polite">
        <span data-testid="preview-state">
          {pending ? "Rendering…" : result ? `Rendered in ${result.renderMs} ms` : "Waiting for the first preview…"}
        </span>
        {staleData ? (
          <Note tone="warning">The sample data has an error: the preview uses the last valid data.</Note>
        ) : null}
      </div>
      {error ? <Note tone="danger">{error.message}</Note> : null}
      <ProblemsList
        problems={result?.problems ?? []}
        missing={result?.missingVariables ?? []}
        strict={strict}
        onGoTo={onGoTo}
      />
      {outdated ? <Note tone="warning">The draft does not render: showing the last version that did.</Note> : null}
      {shown ? (
        <div className={outdated ? "opacity-60" : ""}>
          <dl
            className="mb-3 grid grid-cols-[5.5rem_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm"
            data-testid="preview-envelope"
          >
            <dt className="text-slate-500">Subject</dt>
            <dd className="font-medium break-words text-slate-900" data-testid="preview-subject">
              {shown.subject || <span className="text-slate-400">(empty)</span>}
            </dd>
            <dt className="text-slate-500">From</dt>
            <dd className="break-words text-slate-800" data-testid="preview-from">
              {shown.fromAddress || <span className="text-amber-700">No default sender: set one to send tests.</span>}
            </dd>
            <dt className="text-slate-500">Reply-To</dt>
            <dd className="break-words text-slate-800" data-testid="preview-reply-to">
              {shown.replyTo || <span className="text-slate-400">—</span>}
            </dd>
          </dl>
          <div role="tablist" aria-label="Preview part" className="mb-2 flex gap-1 border-b border-slate-200">
            {(["html", "text"] as const).map((key) => (
              <button
                key={key}
                type="button"
                role="tab"
                id={`preview-tab-${key}${suffix}`}
                aria-selected={tab === key}
                aria-controls={`preview-panel-${key}${suffix}`}
                onClick={() => setTab(key)}
                className={`-mb-px border-b-2 px-3 py-1.5 text-sm font-medium ${tab === key ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-900"}`}
              >
                {key === "html" ? "HTML" : "Text"}
              </button>
            ))}
          </div>
          {tab === "html" ? (
            <div role="tabpanel" id={`preview-panel-html${suffix}`} aria-labelledby={`preview-tab-html${suffix}`}>
              <PreviewFrame
                html={shown.bodyHtml}
                title={locale ? `Preview of the HTML body in ${locale}` : "Preview of the HTML body"}
              />
            </div>
          ) : (
            <div role="tabpanel" id={`preview-panel-text${suffix}`} aria-labelledby={`preview-tab-text${suffix}`}>
              <pre
                data-testid="preview-text"
                className="max-h-[40rem] overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-slate-800"
              >
                {shown.bodyText}
              </pre>
            </div>
          )}
        </div>
      ) : null}
    </div>
  );
}

function Note({ tone, children }: { tone: "warning" | "danger"; children: ReactNode }) {
  const style = tone === "danger" ? "bg-red-50 text-red-800 ring-red-200" : "bg-amber-50 text-amber-900 ring-amber-200";
  return <p className={`rounded-md px-2 py-1 text-xs ring-1 ring-inset ${style}`}>{children}</p>;
}
