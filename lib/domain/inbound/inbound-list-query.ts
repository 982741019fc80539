import { INBOUND_MESSAGE_STATUSES } from "@/db/schema";
import { invalidParameter } from "@/lib/foundation/errors";
import {
  parseCursorPage,
  parseEnum,
  queryParam,
  type CreatedAtRange,
  type KeysetPageQuery,
  type ParamReader,
} from "@/lib/foundation/pagination";

export const INBOUND_PAGE_SIZE = 50;

/** The verdict filters: each a value as the message shows it (`pass`, `fail`, `none`…; spam: `spam`, `not_checked`…). */
export const VERDICT_FILTERS = ["spf", "dkim", "dmarc", "spam"] as const;

export interface InboundListQuery extends KeysetPageQuery {
  createdAt: CreatedAtRange;
  status?: (typeof INBOUND_MESSAGE_STATUSES)[number];
  routeId?: string;
  threadId?: string;
  originalMessageId?: string;
  /** A recipient or sender address (lower-cased): the route's recipient, or the From address. */
  address?: string;
  spf?: string;
  dkim?: string;
  dmarc?: string;
  spam?: string;
}

/** GET /v1/inbound_messages' query string (docs/inbound.md#reading-inbound-mail); the dashboard reads its URL with it too. */
export function parseInboundListQuery(params: URLSearchParams | ParamReader): InboundListQuery {
  const read: ParamReader = typeof params === "function" ? params : (name) => queryParam(params, name);
  const { limit, cursor, createdAt } = parseCursorPage(read, { maxLimit: INBOUND_PAGE_SIZE });
  const query: InboundListQuery = { limit, cursor, createdAt };
  query.status = parseEnum(read("status"), INBOUND_MESSAGE_STATUSES, "status");
  for (const param of ["routeId", "threadId", "originalMessageId"] as const) {
    const value = parseIdFilter(read, param);
    if (value) query[param] = value;
  }
  const address = parseAddressFilter(read);
  if (address) query.address = address;
  for (const param of VERDICT_FILTERS) {
    const value = read(param);
    if (value === null) continue;
    if (!/^[a-z_]{1,32}$/.test(value))
      throw invalidParameter(param, `${param} must be a verdict such as pass, fail, none or not_checked.`);
    query[param] = value;
  }
  return query;
}

export interface ThreadListQuery extends KeysetPageQuery {
  createdAt: CreatedAtRange;
  /** A participant (lower-cased). */
  address?: string;
  /** The thread a sent message (em_…) belongs to, by the reply it got or the reply API. */
  emailMessageId?: string;
}

/** GET /v1/threads' query string: the page, the `createdAt` range and the `address` filter as for inbound messages. */
export function parseThreadListQuery(params: URLSearchParams | ParamReader): ThreadListQuery {
  const read: ParamReader = typeof params === "function" ? params : (name) => queryParam(params, name);
  const { limit, cursor, createdAt } = parseCursorPage(read, { maxLimit: INBOUND_PAGE_SIZE });
  const query: ThreadListQuery = { limit, cursor, createdAt };
  const address = parseAddressFilter(read);
  if (address) query.address = address;
  const emailMessageId = parseIdFilter(read, "emailMessageId");
  if (emailMessageId) query.emailMessageId = emailMessageId;
  return query;
}

/** An id filter (`routeId`, `emailMessageId`…): unknown ids simply match nothing, so only the length is checked. */
function parseIdFilter(read: ParamReader, param: string): string | undefined {
  const value = read(param);
  if (value === null) return undefined;
  if (value === "" || value.length > 64) throw invalidParameter(param, `${param} must be 1 to 64 characters.`);
  return value;
}

/** `address`: one email address, compared lower-cased. */
function parseAddressFilter(read: ParamReader): string | undefined {
  const address = read("address")?.trim();
  if (address === undefined) return undefined;
  if (address === "" || address.length > 320 || /\s/.test(address))
    throw invalidParameter("address", "address must be one email address, such as ada@example.com.");
  return address.toLowerCase();
}
