const pad2 = (n: number) => (n < 10 ? "0" : "") + n;
const pad3 = (n: number) => (n < 10 ? "00" : n < 100 ? "0" : "") + n;

/**
 * `date.toISOString()`'s text, faster: a page formats hundreds (docs/benchmarks.md#every-request-the-activity-logs-insert-and-timestamps-session-12).
 * Years outside 1000–9999 and invalid dates go to toISOString itself.
 */
export function isoTime(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return date.toISOString();
  return (
    year +
    "-" +
    pad2(date.getUTCMonth() + 1) +
    "-" +
    pad2(date.getUTCDate()) +
    "T" +
    pad2(date.getUTCHours()) +
    ":" +
    pad2(date.getUTCMinutes()) +
    ":" +
    pad2(date.getUTCSeconds()) +
    "." +
    pad3(date.getUTCMilliseconds()) +
    "Z"
  );
}
