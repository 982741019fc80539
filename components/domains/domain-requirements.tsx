import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Timestamp } from "@/components/ui/timestamp";
import type {
  RequirementCheck,
  RequirementLine,
  RequirementStatus,
} from "@/lib/domain/domains/requirements/requirement-lines.shared";

const TONES: Record<RequirementStatus, BadgeTone> = { pass: "success", warn: "warning", fail: "danger" };
const LABELS: Record<RequirementStatus, string> = { pass: "Pass", warn: "Warn", fail: "Fail" };
const SUMMARIES: Record<RequirementStatus, string> = {
  pass: "Every requirement is met.",
  warn: "Nothing fails, but some lines need a look.",
  fail: "Some requirements are not met: mail may be rejected or land in spam.",
};

/**
 * The newest sender-requirements check of a domain (lib/domain/domains/requirements/): one row per line with its
 * status, what was found and, when there is something to change, the fix as text to copy.
 */
export function DomainRequirements({ check }: { check: RequirementCheck | null }) {
  if (!check) {
    return (
      <div data-testid="requirements">
        <p className="text-sm text-slate-600">
          Not checked yet. Verify DNS records above (admins) or wait for the daily check.
        </p>
      </div>
    );
  }
  return (
    <div data-testid="requirements" className="space-y-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span data-testid="requirements-overall">
          <RequirementBadge status={check.status} />
        </span>
        <span className="text-slate-700">{SUMMARIES[check.status]}</span>
        <span className="text-xs text-slate-500">
          Checked{" "}
          <span data-testid="requirements-checked-at">
            <Timestamp value={new Date(check.checkedAt)} />
          </span>
        </span>
      </div>
      <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
        {check.lines.map((line) => (
          <RequirementRow key={line.id} line={line} />
        ))}
      </ul>
    </div>
  );
}

function RequirementBadge({ status }: { status: RequirementStatus }) {
  return <Badge tone={TONES[status]}>{LABELS[status] ?? status}</Badge>;
}

function RequirementRow({ line }: { line: RequirementLine }) {
  return (
    <li data-testid={`requirement-${line.id}`} className="flex flex-col gap-2 p-3 sm:flex-row sm:gap-3">
      <span data-testid="requirement-status" className="shrink-0 sm:w-12">
        <RequirementBadge status={line.status} />
      </span>
      <div className="min-w-0 flex-1 space-y-1">
        <p className="text-sm font-medium text-slate-900">{line.title}</p>
        <p className="text-sm text-slate-600">{line.why}</p>
        {line.fix ? (
          <div className="pt-1">
            <p className="text-xs font-medium text-slate-500">Fix</p>
            <code
              className="mt-1 block rounded bg-slate-50 px-2 py-1 font-mono text-xs break-all text-slate-800 select-text"
              data-testid="requirement-fix"
            >
              {line.fix}
            </code>
          </div>
        ) : null}
      </div>
    </li>
  );
}
