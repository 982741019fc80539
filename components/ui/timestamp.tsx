import { LocalTime } from "./local-time";
import { formatUtc } from "./time-format.shared";

/** `2026-01-02 03:04:05 UTC`: for places that print a time as plain text on the server. */
export function formatTimestamp(date: Date, options: { milliseconds?: boolean } = {}): string {
  return formatUtc(date.toISOString(), options.milliseconds);
}

/** Every time on the dashboard: one format, the reader's zone, UTC on hover (components/ui/local-time.tsx). */
export function Timestamp({ value, milliseconds }: { value: Date | null; milliseconds?: boolean }) {
  if (!value) return <span className="text-slate-400">—</span>;
  return <LocalTime iso={value.toISOString()} milliseconds={milliseconds} />;
}

/** `2026-01-02 03:04 UTC`, for dense lists (the inbox): to the minute, but still with its zone. */
export function formatMinute(date: Date): string {
  return formatTimestamp(date).replace(/:\d\d UTC$/, " UTC");
}
