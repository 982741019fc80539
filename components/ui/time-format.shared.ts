/** `2026-01-02 03:04:05 UTC`: what the server can print before it knows the reader's zone. */
export function formatUtc(iso: string, milliseconds = false): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, milliseconds ? 23 : 19)} UTC`;
}

/** The dashboard's one format for an instant, in the browser's zone and locale. */
export function formatLocal(iso: string, milliseconds = false): string {
  return new Intl.DateTimeFormat(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    ...(milliseconds ? { fractionalSecondDigits: 3 as const } : {}),
    timeZoneName: "short",
  }).format(new Date(iso));
}
