import { now } from "@/lib/foundation/clock";
import { env } from "@/lib/foundation/env";
import { invalidParameter } from "@/lib/foundation/errors";

// An explicit offset is required: a time without one would be read in the server's zone (docs/api.md#decided-scheduled-sends).
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** Strictly in the future, at most SCHEDULE_MAX_DAYS ahead; `param` names the field in the 400. */
export function parseScheduledAt(value: unknown, param: string): Date {
  if (typeof value !== "string" || !WITH_OFFSET.test(value.trim())) {
    throw invalidParameter(
      param,
      `${param} must be an ISO 8601 date and time with an offset, such as 2026-05-01T09:00:00+02:00 or 2026-05-01T07:00:00Z.`,
    );
  }
  const at = new Date(value.trim());
  // Rejects impossible dates the pattern lets through (2026-02-30, 25:00).
  if (Number.isNaN(at.getTime()) || !sameCalendarDate(value.trim(), at)) {
    throw invalidParameter(param, `${param} is not a real date and time: ${JSON.stringify(value)}.`);
  }
  const current = now();
  if (at.getTime() <= current.getTime()) {
    throw invalidParameter(
      param,
      `${param} is in the past (${at.toISOString()}; it is now ${current.toISOString()}); omit it to send at once.`,
    );
  }
  const maxDays = env().SCHEDULE_MAX_DAYS;
  if (at.getTime() > current.getTime() + maxDays * 24 * 3600 * 1000) {
    throw invalidParameter(param, `${param} may be at most ${maxDays} days ahead; ${at.toISOString()} is further.`);
  }
  return at;
}

/** JavaScript rolls 2026-02-30 over to March 2: the written day must survive the round trip. */
function sameCalendarDate(text: string, at: Date): boolean {
  const [, year, month, day, hour, minute, sign, offsetHours, offsetMinutes] =
    /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}).*?(?:Z|([+-])(\d{2}):?(\d{2}))$/i.exec(text) ?? [];
  const offset = sign ? (sign === "-" ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes)) : 0;
  const local = new Date(at.getTime() + offset * 60_000);
  return (
    local.getUTCFullYear() === Number(year) &&
    local.getUTCMonth() + 1 === Number(month) &&
    local.getUTCDate() === Number(day) &&
    local.getUTCHours() === Number(hour) &&
    local.getUTCMinutes() === Number(minute)
  );
}
