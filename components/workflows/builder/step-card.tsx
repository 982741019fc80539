import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";

/** One step's frame: its number and kind, move up/down and remove, and a problem with the step as a whole. */
export function StepCard({
  index,
  count,
  kind,
  error,
  onMove,
  onRemove,
  children,
}: {
  index: number;
  count: number;
  kind: string;
  error?: string;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
  children: ReactNode;
}) {
  const number = index + 1;
  return (
    <li
      data-testid={`step-${number}`}
      aria-label={`Step ${number}: ${kind}`}
      className="rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-2">
        <h3 className="text-sm font-semibold text-slate-900">
          <span className="mr-2 text-slate-400 tabular-nums">{number}.</span>
          {kind}
        </h3>
        <div className="flex gap-1">
          <Button
            variant="ghost"
            aria-label={`Move step ${number} up`}
            disabled={index === 0}
            onClick={() => onMove(-1)}
          >
            ↑
          </Button>
          <Button
            variant="ghost"
            aria-label={`Move step ${number} down`}
            disabled={index === count - 1}
            onClick={() => onMove(1)}
          >
            ↓
          </Button>
          <Button variant="ghost" aria-label={`Remove step ${number}`} onClick={onRemove}>
            Remove
          </Button>
        </div>
      </header>
      <div className="space-y-3 px-4 py-3">
        {error ? <p className="text-xs text-red-600">{error}</p> : null}
        {children}
      </div>
    </li>
  );
}
