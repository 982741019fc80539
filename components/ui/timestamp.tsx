/** `2026-01-02 03:04:05 UTC`: one unambiguous zone for every reader; the exact ISO value on hover. */
export function formatTimestamp(date: Date, options: { milliseconds?: boolean } = {}): string {
  const iso = date.toISOString();
  const time = options.milliseconds ? iso.slice(11, 23) : iso.slice(11, 19);
  return `${iso.slice(0, 10)} ${time} UTC`;
}

export function Timestamp({ value, milliseconds }: { value: Date | null; milliseconds?: boolean }) {
  if (!value) return <span className="text-slate-400">—</span>;
  const iso = value.toISOString();
  return (
    <time dateTime={iso} title={iso} className="tabular-nums">
      {formatTimestamp(value, { milliseconds })}
    </time>
  );
}

/** `2026-01-02 03:04 UTC`, for dense lists (the inbox): to the minute, but still with its zone. */
export function formatMinute(date: Date): string {
  return formatTimestamp(date).replace(/:\d\d UTC$/, " UTC");
}
