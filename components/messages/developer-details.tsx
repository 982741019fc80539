import { DescriptionList, type DescriptionItem } from "@/components/ui/description-list";
import type { TimelineEvent } from "./message-timeline";

/**
 * The page speaks in words; developers matching it to the API, a webhook or a log line need the raw
 * codes, field names and ids. They stay here, one click away, rather than on every line.
 */
export function DeveloperDetails({ fields, events }: { fields: DescriptionItem[]; events: TimelineEvent[] }) {
  return (
    <details className="rounded-lg border border-slate-200 bg-white shadow-sm" data-testid="developer-details">
      <summary className="cursor-pointer px-4 py-3 text-sm font-semibold text-slate-900">Developer details</summary>
      <div className="space-y-4 border-t border-slate-200 p-4">
        <DescriptionList items={fields} />
        <div className="min-w-0">
          <h3 className="mb-2 text-xs font-medium tracking-wide text-slate-500 uppercase">
            Timeline codes, newest first
          </h3>
          <ol className="space-y-1 font-mono text-xs text-slate-700" aria-label="Timeline codes">
            {events.map((event) => (
              <li key={event.id} className="break-all">
                <span className="text-slate-900">{event.code}</span> <span className="text-slate-500">{event.id}</span>{" "}
                <span className="text-slate-500">{event.createdAt.toISOString()}</span>
              </li>
            ))}
          </ol>
        </div>
      </div>
    </details>
  );
}
