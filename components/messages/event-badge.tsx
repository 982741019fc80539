import { Badge } from "@/components/ui/badge";
import { describeEvent } from "@/lib/records/timeline/event-labels.shared";

/** A timeline event as a reader says it: glyph and words in its category's colour (lib/records/timeline/event-labels.shared.ts). */
export function EventBadge({ code, message }: { code: string; message?: string }) {
  const event = describeEvent(code, message);
  return (
    <Badge tone={event.tone}>
      <span aria-hidden className="mr-1">
        {event.icon}
      </span>
      <span className="whitespace-normal" data-testid="event-label">
        {event.label}
      </span>
    </Badge>
  );
}
