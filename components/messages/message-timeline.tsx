import { LocalTime } from "@/components/ui/local-time";
import { Badge } from "@/components/ui/badge";
import { Timestamp } from "@/components/ui/timestamp";
import { splitSentence } from "@/lib/records/timeline/event-labels.shared";
import { EventBadge } from "./event-badge";

export interface TimelineEvent {
  id: string;
  code: string;
  message: string;
  bot: boolean;
  createdAt: Date;
}

/** An event's sentence with the instants it names in the page's one time format. */
export function EventSentence({ message }: { message: string }) {
  return splitSentence(message).map((part, index) =>
    "iso" in part ? <LocalTime key={index} iso={part.iso} /> : part.text,
  );
}

/** The delivery timeline, newest first, as the caller gives it; the raw codes are in the page's developer details. */
export function MessageTimeline({ events }: { events: TimelineEvent[] }) {
  if (events.length === 0) return <p className="text-sm text-slate-500">No events recorded yet.</p>;
  return (
    <ol className="relative space-y-4 border-l border-slate-200 pl-5" aria-label="Timeline, newest first">
      {events.map((event) => (
        <li key={event.id} className="relative" data-code={event.code}>
          <span
            aria-hidden
            className="absolute top-1.5 -left-[1.6rem] h-2.5 w-2.5 rounded-full border-2 border-white bg-slate-400"
          />
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <EventBadge code={event.code} message={event.message} />
            {event.bot ? <Badge>bot</Badge> : null}
            <span className="text-xs text-slate-500">
              <Timestamp value={event.createdAt} />
            </span>
          </div>
          <p className="mt-1 text-sm break-words text-slate-700">
            <EventSentence message={event.message} />
          </p>
        </li>
      ))}
    </ol>
  );
}
