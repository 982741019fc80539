import { Fragment } from "react";
import { Badge } from "@/components/ui/badge";
import { Timestamp } from "@/components/ui/timestamp";
import { eventTone } from "./status-badge";

export interface TimelineEvent {
  id: string;
  code: string;
  message: string;
  bot: boolean;
  createdAt: Date;
}

/** Long codes wrap at their underscores on narrow screens, never mid-word. */
function BreakableCode({ code }: { code: string }) {
  const parts = code.split("_");
  return parts.map((part, index) => (
    <Fragment key={index}>
      {part}
      {index < parts.length - 1 ? (
        <>
          _<wbr />
        </>
      ) : null}
    </Fragment>
  ));
}

/** The delivery timeline, newest first, as the caller gives it. */
export function MessageTimeline({ events }: { events: TimelineEvent[] }) {
  if (events.length === 0) return <p className="text-sm text-slate-500">No events recorded yet.</p>;
  return (
    <ol className="relative space-y-4 border-l border-slate-200 pl-5" aria-label="Timeline, newest first">
      {events.map((event) => (
        <li key={event.id} className="relative" data-code={event.code}>
          <span aria-hidden className="absolute top-1.5 -left-[1.6rem] h-2.5 w-2.5 rounded-full border-2 border-white bg-slate-400" />
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <Badge tone={eventTone(event.code)}>
              <span className="font-mono whitespace-normal">
                <BreakableCode code={event.code} />
              </span>
            </Badge>
            {event.bot ? <Badge>bot</Badge> : null}
            <span className="text-xs text-slate-500">
              <Timestamp value={event.createdAt} milliseconds />
            </span>
          </div>
          <p className="mt-1 text-sm break-words text-slate-700">{event.message}</p>
        </li>
      ))}
    </ol>
  );
}
