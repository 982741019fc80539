import { decodeTime, encodeTime } from "@/lib/foundation/ids";

// Where a day starts among ids (lib/foundation/ids.ts): the prefix and the 8 base62 characters of the day's first
// millisecond. Ids sort in ASCII order, so every id made in [day, next day) lies in [bound(day), bound(next day)).
export const DAY_MS = 24 * 3600 * 1000;

export function idBound(prefix: string, at: Date): string {
  return prefix + encodeTime(at.getTime());
}

/** The time an id bound (or an id) names: its 8 characters after the prefix. */
export function boundTime(prefix: string, bound: string): Date {
  return new Date(decodeTime(bound.slice(prefix.length, prefix.length + 8)));
}

/** Midnight UTC of the day holding `at`: partitions are UTC days. */
export function dayStart(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
}

export function addDays(at: Date, days: number): Date {
  return new Date(at.getTime() + days * DAY_MS);
}

/** `p20261129`: a day partition's suffix. */
export function daySuffix(day: Date): string {
  return `p${day.toISOString().slice(0, 10).replaceAll("-", "")}`;
}
