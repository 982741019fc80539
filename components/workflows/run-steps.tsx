import { Badge, type BadgeTone } from "@/components/ui/badge";

export interface StepRowView {
  index: number;
  kind: string;
  summary: string;
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

/** A run's steps in order, each with what it does and where it stands. */
export function RunSteps({ steps }: { steps: StepRowView[] }) {
  return (
    <ol className="divide-y divide-slate-100" data-testid="run-steps">
      {steps.map((step) => (
        <li key={step.index} className="flex flex-wrap items-center justify-between gap-2 py-2 first:pt-0 last:pb-0">
          <div className="min-w-0 text-sm">
            <span className="mr-2 text-slate-400 tabular-nums">{step.index + 1}.</span>
            <span className="font-mono text-xs text-slate-500">{step.kind}</span>
            <p className="mt-0.5 break-words text-slate-800">{step.summary}</p>
          </div>
          <Badge tone={TONES[step.state] ?? "neutral"}>{step.state}</Badge>
        </li>
      ))}
    </ol>
  );
}
