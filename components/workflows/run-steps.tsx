import Link from "next/link";
import { Badge, type BadgeTone } from "@/components/ui/badge";

export interface StepRowView {
  index: number;
  kind: string;
  summary: string;
  send: { templateId: string; to: string } | null;
  state: string;
}

const TONES: Record<string, BadgeTone> = {
  done: "success",
  running: "info",
  waiting: "info",
  failed: "danger",
  pending: "neutral",
  "not run": "neutral",
};

const KIND_WORDS: Record<string, string> = { sendEmail: "Send email", wait: "Wait" };

/** A run's steps in order, each with what it does and where it stands; a send names its template and links to it. */
export function RunSteps({ steps, templateNames }: { steps: StepRowView[]; templateNames: Map<string, string> }) {
  return (
    <ol className="divide-y divide-slate-100" data-testid="run-steps">
      {steps.map((step) => (
        <li key={step.index} className="flex flex-wrap items-center justify-between gap-2 py-2 first:pt-0 last:pb-0">
          <div className="min-w-0 text-sm">
            <span className="mr-2 text-slate-400 tabular-nums">{step.index + 1}.</span>
            <span className="text-xs text-slate-500">{KIND_WORDS[step.kind] ?? step.kind}</span>
            <p className="mt-0.5 break-words text-slate-800">
              {step.send ? (
                <SendSummary send={step.send} name={templateNames.get(step.send.templateId)} />
              ) : (
                step.summary
              )}
            </p>
          </div>
          <Badge tone={TONES[step.state] ?? "neutral"}>{step.state}</Badge>
        </li>
      ))}
    </ol>
  );
}

/** "Send Welcome to {{ user.email }}"; a template deleted since shows its id, unlinked. */
function SendSummary({ send, name }: { send: { templateId: string; to: string }; name: string | undefined }) {
  return (
    <>
      Send{" "}
      {name ? (
        <Link
          href={`/templates/${encodeURIComponent(send.templateId)}`}
          className="font-medium text-indigo-700 hover:underline"
          data-testid="step-template"
        >
          {name}
        </Link>
      ) : (
        <span className="font-mono text-xs">{send.templateId} (deleted template)</span>
      )}{" "}
      to <span className="font-mono text-xs">{send.to}</span>
    </>
  );
}
