import { AppError, invalidParameter } from "@/lib/foundation/errors";
import { isId } from "@/lib/foundation/ids";
import { parseCursorPage, parseEnum } from "@/lib/foundation/pagination";
import type { InboundDashboardQuery } from "./dashboard-inbound-reads";

/** The Inbound page's filters as they appear in the URL (a GET form, so a filtered view is a link). */
export const INBOUND_SEARCH_PARAMS = [
  "address",
  "routeId",
  "status",
  "spf",
  "dkim",
  "dmarc",
  "spam",
  "createdFrom",
  "createdTo",
] as const;

const STATUSES = ["RECEIVED", "QUARANTINED"] as const;
const VERDICTS = ["spf", "dkim", "dmarc", "spam"] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export type InboundListSearch =
  { ok: true; query: InboundDashboardQuery } | { ok: false; param: string; message: string };

/**
 * The Inbound page's URL under GET /v1/inbound_messages' parameter names: an empty field means no filter,
 * the day range is whole days in UTC; a bad value comes back with its field, for the form to show beside it.
 */
export function parseInboundListSearch(search: URLSearchParams): InboundListSearch {
  const value = (name: string) => search.get(name)?.trim() || null;
  try {
    const from = value("createdFrom");
    const to = value("createdTo");
    if (from && to && from > to) throw invalidParameter("createdTo", "The end date is before the start date.");
    const { limit, cursor } = parseCursorPage((name) => value(name), { maxLimit: 50 });
    const query: InboundDashboardQuery = { limit, cursor, createdAt: {} };
    if (from) query.createdAt.gte = dayStart(from, "createdFrom");
    if (to) query.createdAt.lt = new Date(dayStart(to, "createdTo").getTime() + 86_400_000);
    query.status = parseEnum(value("status"), STATUSES, "status");
    const routeId = value("routeId");
    if (routeId) {
      if (!isId("inboundRoute", routeId)) throw invalidParameter("routeId", "routeId must be a route id (irt_…).");
      query.routeId = routeId;
    }
    const address = value("address");
    if (address) {
      if (address.length > 320 || /[\s\x00-\x1f\x7f]/.test(address))
        throw invalidParameter("address", "address must be one email address, such as ada@example.com.");
      query.address = address.toLowerCase();
    }
    for (const param of VERDICTS) {
      const verdict = value(param);
      if (!verdict) continue;
      if (!/^[a-z_]{1,32}$/.test(verdict))
        throw invalidParameter(param, `${param} must be a verdict such as pass, fail, none or not_checked.`);
      query[param] = verdict;
    }
    return { ok: true, query };
  } catch (error) {
    if (error instanceof AppError && error.code === "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR")
      return { ok: false, param: error.param ?? "", message: error.message };
    throw error;
  }
}

function dayStart(day: string, param: string): Date {
  const date = new Date(`${day}T00:00:00.000Z`);
  if (!DAY.test(day) || Number.isNaN(date.getTime()))
    throw invalidParameter(param, `${param} must be a date such as 2026-01-31.`);
  return date;
}
