import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Timestamp } from "@/components/ui/timestamp";

export interface ProblemRow {
  id: string;
  kind: "FAILED" | "BOUNCED";
  at: Date;
  sandbox: boolean;
  to: string[];
  subject: string;
}

/** The latest failures and bounces, each linking to its message and timeline. */
export function RecentProblems({ problems }: { problems: ProblemRow[] }) {
  if (problems.length === 0)
    return <p className="text-sm text-slate-600">No failures or bounces in the last 14 days.</p>;
  return (
    <ul className="divide-y divide-slate-100" data-testid="recent-problems">
      {problems.map((problem) => (
        <li
          key={`${problem.kind}-${problem.id}`}
          className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 py-2 first:pt-0 last:pb-0"
        >
          <div className="min-w-0">
            <div className="flex items-center gap-2">
              <Badge tone={problem.kind === "FAILED" ? "danger" : "warning"}>
                {problem.kind === "FAILED" ? "Failed" : "Bounced"}
              </Badge>
              {problem.sandbox ? <Badge>sandbox</Badge> : null}
              <Link
                href={`/emails/${problem.id}`}
                className="truncate text-sm font-medium text-indigo-600 hover:underline"
              >
                {problem.subject || "(no subject)"}
              </Link>
            </div>
            <p className="mt-0.5 truncate text-xs text-slate-500">to {problem.to.join(", ")}</p>
          </div>
          <span className="text-xs text-slate-500">
            <Timestamp value={problem.at} />
          </span>
        </li>
      ))}
    </ul>
  );
}
