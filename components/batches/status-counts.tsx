import { StatusBadge } from "@/components/messages/status-badge";

/** "2 SUCCEEDED · 1 FAILED": the non-zero statuses of a set of messages, in status order. */
export function StatusCounts({ counts }: { counts: Record<string, number> }) {
  const present = Object.entries(counts).filter(([, count]) => count > 0);
  if (present.length === 0) return <span className="text-slate-400">No messages</span>;
  return (
    <span className="flex flex-wrap gap-1.5">
      {present.map(([status, count]) => (
        <span key={status} className="inline-flex items-center gap-1 tabular-nums">
          <span className="text-slate-700">{count}</span>
          <StatusBadge status={status} />
        </span>
      ))}
    </span>
  );
}
