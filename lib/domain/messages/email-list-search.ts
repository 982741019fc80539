import { AppError, invalidParameter } from "@/lib/foundation/errors";
import { readMessageListQuery, type MessageListQuery } from "./message-list-query";

/** The dashboard's filter parameters as they appear in the URL (GET form, so links are shareable). */
export const EMAIL_FILTER_PARAMS = [
  "subject",
  "status",
  "source",
  "mode",
  "templateId",
  "batchId",
  "to",
  "metaId",
  "createdFrom",
  "createdTo",
  "scheduled",
] as const;
export type EmailFilterParam = (typeof EMAIL_FILTER_PARAMS)[number];

/** A value the Emails page could not read, with the URL parameter (the form field) it concerns. */
export interface EmailListSearchError {
  ok: false;
  param: string;
  message: string;
}

export type EmailListSearch = { ok: true; query: MessageListQuery } | EmailListSearchError;

/** The API's parameters the Emails URL also carries, under the same names. */
const API_PARAMS = new Set([
  "subject",
  "status",
  "source",
  "templateId",
  "batchId",
  "to",
  "metaId",
  "scheduled",
  "limit",
  "cursor.after",
  "cursor.before",
]);
const PAGE_PARAMS = new Set(["limit", "cursor.after", "cursor.before"]);
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The Emails page's URL as a message list query: an empty field means no filter, the day range is UTC, the rest follow
 * the API's rules; a bad value comes back with its field. `pages: false` ignores `limit` and the cursors.
 */
export function parseEmailListSearch(search: URLSearchParams, options: { pages?: boolean } = {}): EmailListSearch {
  const value = (name: string) => search.get(name)?.trim() || null;
  try {
    const mode = value("mode");
    if (mode && mode !== "live" && mode !== "sandbox") throw invalidParameter("mode", "mode must be live or sandbox.");
    const from = value("createdFrom");
    const to = value("createdTo");
    const createdAt: MessageListQuery["createdAt"] = {};
    if (from) createdAt.gte = dayStart(from, "createdFrom");
    if (to) createdAt.lt = new Date(dayStart(to, "createdTo").getTime() + 86_400_000);
    if (from && to && from > to) throw invalidParameter("createdTo", "The end date is before the start date.");
    const readable = (name: string) => API_PARAMS.has(name) && (options.pages !== false || !PAGE_PARAMS.has(name));
    const query = readMessageListQuery(
      (name) => (readable(name) ? value(name) : null),
      (name) => (name === "tag" ? dashboardTags(search) : []),
    );
    return { ok: true, query: { ...query, createdAt, sandbox: mode ? mode === "sandbox" : undefined } };
  } catch (error) {
    if (error instanceof AppError && error.code === "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR")
      // `tag[1]` is the form's one Tag field.
      return { ok: false, param: error.param?.replace(/^tag\[\d+\]$/, "tag") ?? "", message: error.message };
    throw error;
  }
}

function dayStart(day: string, param: string): Date {
  const date = new Date(`${day}T00:00:00.000Z`);
  if (!DAY.test(day) || Number.isNaN(date.getTime()))
    throw invalidParameter(param, `${param} must be a date such as 2026-01-31.`);
  return date;
}

/** The Emails URL's `tag` filters (repeated: all must match), blanks dropped: an empty "add a tag" field adds none. */
export function dashboardTags(search: URLSearchParams): string[] {
  return [...new Set(search.getAll("tag").map((tag) => tag.trim()))].filter(Boolean);
}
