import { MESSAGE_SOURCES, MESSAGE_STATUSES, type MessageSource, type MessageStatus } from "@/db/schema";
import { invalidParameter } from "@/lib/foundation/errors";
import {
  parseCursorPage,
  parseEnum,
  queryParam,
  type CreatedAtRange,
  type KeysetPageQuery,
  type ParamReader,
} from "@/lib/foundation/pagination";
import { parseSingleAddress } from "@/lib/foundation/addresses/recipients.shared";
import { MAX_TAGS, normaliseTags } from "./tags.shared";

export const MESSAGES_PAGE_SIZE = 50;

/** What a message list asks for, parsed: a keyset page and filters, each absent when not given. */
export interface MessageListQuery extends KeysetPageQuery {
  createdAt: CreatedAtRange;
  status?: MessageStatus;
  source?: MessageSource;
  templateId?: string;
  batchId?: string;
  metaId?: string;
  to?: string;
  /** `name:value` tags a message must all hold (repeated `tag`: AND). */
  tags?: string[];
  /** Text the subject contains, case-insensitive (trimmed; beyond the published API). */
  subject?: string;
  /** true: scheduled and still waiting for its time (PENDING or PAUSED, not handed over); false: not scheduled. */
  scheduled?: boolean;
  /** The dashboard's live/sandbox filter (not an API parameter: there `source` says it). */
  sandbox?: boolean;
}

/** GET /v1/email_messages' query string (docs/api.md#decided-listing-messages), with `subject` and `scheduled` beyond it. */
export function parseMessageListQuery(params: URLSearchParams): MessageListQuery {
  return readMessageListQuery(
    (name) => queryParam(params, name),
    (name) => params.getAll(name),
  );
}

/** In the API's order, so the first bad value is the one reported; the dashboard's URL is read through this too. */
export function readMessageListQuery(read: ParamReader, readAll?: (name: string) => string[]): MessageListQuery {
  const { limit, cursor, createdAt } = parseCursorPage(read, { maxLimit: MESSAGES_PAGE_SIZE });
  const query: MessageListQuery = { limit, cursor, createdAt };
  query.status = parseEnum(read("status"), MESSAGE_STATUSES, "status");
  query.source = parseEnum(read("source"), MESSAGE_SOURCES, "source");
  for (const param of ["templateId", "batchId", "metaId"] as const) {
    const value = read(param);
    if (value === null) continue;
    if (value === "" || value.length > 255) throw invalidParameter(param, `${param} must be 1 to 255 characters.`);
    query[param] = value;
  }
  const to = read("to");
  if (to !== null) query.to = parseSingleAddress(to, "to", "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR").address;
  const tags = readAll ? readAll("tag") : [read("tag")].filter((tag) => tag !== null);
  if (tags.length > 0) query.tags = readTagFilter(tags);
  const subject = read("subject")?.trim();
  if (subject !== undefined) {
    if (subject === "" || subject.length > 200)
      throw invalidParameter("subject", "subject must be 1 to 200 characters of the subject to look for.");
    query.subject = subject;
  }
  const scheduled = read("scheduled");
  if (scheduled !== null) {
    if (scheduled !== "true" && scheduled !== "false")
      throw invalidParameter(
        "scheduled",
        "scheduled must be true (scheduled, still waiting) or false (not scheduled).",
      );
    query.scheduled = scheduled === "true";
  }
  return query;
}

/** `tag=plan:pro&tag=region:eu`: every tag must be on the message; each follows the send's grammar. */
function readTagFilter(tags: string[]): string[] {
  if (tags.length > MAX_TAGS) throw invalidParameter("tag", `Give at most ${MAX_TAGS} tag parameters.`);
  return normaliseTags(tags, "tag");
}
