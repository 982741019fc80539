import { invalidParameter } from "@/lib/foundation/errors";

/** List parameters, parsed in one place: the API's dotted names (`cursor.after`) or the bracket form encoders produce (`cursor[after]`). */
export interface KeysetPageQuery {
  limit: number;
  /** One direction at a time: a query cannot hold both `cursor.after` and `cursor.before`. */
  cursor: { direction: "after" | "before"; id: string } | null;
}

export type CreatedAtRange = { gt?: Date; gte?: Date; lt?: Date; lte?: Date };

export interface CursorPage extends KeysetPageQuery {
  createdAt: CreatedAtRange;
}

/** Reads one parameter by its API name; a URL's query through `queryParam`, or a page's own reading. */
export type ParamReader = (name: string) => string | null;

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export function queryParam(params: URLSearchParams, name: string): string | null {
  const [head, tail] = name.split(".");
  return params.get(name) ?? (tail ? params.get(`${head}[${tail}]`) : null);
}

export function parseCursorPage(params: URLSearchParams | ParamReader, options: { maxLimit: number }): CursorPage {
  const read: ParamReader = typeof params === "function" ? params : (name) => queryParam(params, name);
  const limit = parseLimit(read("limit"), options.maxLimit);
  const after = read("cursor.after");
  const before = read("cursor.before");
  if (after && before) throw invalidParameter("cursor.before", "Give cursor.after or cursor.before, not both.");
  const cursor = after
    ? { direction: "after" as const, id: after }
    : before
      ? { direction: "before" as const, id: before }
      : null;
  const createdAt: CursorPage["createdAt"] = {};
  for (const op of ["gt", "gte", "lt", "lte"] as const) {
    const value = read(`createdAt.${op}`);
    if (value !== null) createdAt[op] = parseDateTime(value, `createdAt.${op}`);
  }
  return { limit, cursor, createdAt };
}

/** A page for lists without a createdAt filter: createdAt.* is still validated (a bad one stays a 400), then dropped. */
export function parseKeysetPageQuery(params: URLSearchParams, options: { maxLimit: number }): KeysetPageQuery {
  const { limit, cursor } = parseCursorPage(params, options);
  return { limit, cursor };
}

export function parseLimit(value: string | null, max: number): number {
  if (value === null || value === "") return max;
  if (!/^\d{1,4}$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw invalidParameter("limit", `limit must be a whole number from 1 to ${max}.`);
  }
  return Number(value);
}

export function parseDateTime(value: string, param: string): Date {
  const date = new Date(value);
  if (!ISO_DATE_TIME.test(value) || Number.isNaN(date.getTime())) {
    throw invalidParameter(param, `${param} must be an ISO 8601 date-time such as 2026-01-02T03:04:05.000Z.`);
  }
  return date;
}

export function parseEnum<T extends string>(value: string | null, allowed: readonly T[], param: string): T | undefined {
  if (value === null || value === "") return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw invalidParameter(param, `${param} must be one of ${allowed.join(", ")}.`);
  return value as T;
}
