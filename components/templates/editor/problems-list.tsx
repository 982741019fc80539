"use client";

import { FIELD_LABELS, type PreviewProblem } from "./types";

/**
 * What stops the draft from rendering, field by field with line and column (each a button that puts
 * the cursor there), and the variables the sample data lacks: the reason it does not render in strict
 * mode, a hint in lenient mode (they render as nothing).
 */
export function ProblemsList({
  problems,
  missing,
  strict,
  onGoTo,
}: {
  problems: PreviewProblem[];
  missing: string[];
  strict: boolean;
  onGoTo: (problem: PreviewProblem) => void;
}) {
  if (problems.length === 0 && missing.length === 0) return null;
  return (
    <div className="space-y-2" data-testid="preview-problems">
      {problems.length > 0 ? (
        <ul
          aria-label="Problems"
          className="space-y-1 rounded-md bg-red-50 p-2 text-sm text-red-800 ring-1 ring-red-200 ring-inset"
        >
          {problems.map((problem, index) => (
            <li key={`${problem.field}-${index}`} data-testid="problem" data-field={problem.field}>
              <button type="button" onClick={() => onGoTo(problem)} className="text-left hover:underline">
                <span className="font-semibold">{FIELD_LABELS[problem.field]}</span>
                {problem.line ? (
                  <span className="font-mono text-xs">
                    {" "}
                    · line {problem.line}, column {problem.column}
                  </span>
                ) : null}
                <span>: {problem.message}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {missing.length > 0 ? (
        <p
          data-testid="missing-variables"
          className={`rounded-md p-2 text-sm ring-1 ring-inset ${strict ? "bg-red-50 text-red-800 ring-red-200" : "bg-amber-50 text-amber-900 ring-amber-200"}`}
        >
          {strict
            ? "Strict mode: missing from the sample data, so the template does not render: "
            : "Not in the sample data (they render as nothing): "}
          {missing.map((name, index) => (
            <span key={name}>
              {index > 0 ? ", " : null}
              <code className="font-mono text-xs">{name}</code>
            </span>
          ))}
        </p>
      ) : null}
    </div>
  );
}
