import "server-only";
import { and, eq, gt, gte, lt, lte, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db/client";
import { keysetPage } from "@/db/keyset";
import { emailMessages, inboundMessages, inboundThreads as t } from "@/db/schema";
import { invalidParameter } from "@/lib/foundation/errors";
import { isoTime } from "@/lib/foundation/iso-time";
import { parseCursorPage, queryParam, type CursorPage, type ParamReader } from "@/lib/foundation/pagination";

const THREAD_PAGE_SIZE = 50;

export interface ThreadListQuery extends CursorPage {
  /** A participant (lower-cased). */
  address?: string;
  /** The thread a sent message (em_…) belongs to, by the reply it got or the reply API. */
  emailMessageId?: string;
}

/** GET /v1/threads' query string (docs/inbound.md#threads). */
export function parseThreadListQuery(params: URLSearchParams | ParamReader): ThreadListQuery {
  const read: ParamReader = typeof params === "function" ? params : (name) => queryParam(params, name);
  const query: ThreadListQuery = parseCursorPage(read, { maxLimit: THREAD_PAGE_SIZE });
  const address = read("address")?.trim();
  if (address !== undefined) {
    if (address === "" || address.length > 320 || /\s/.test(address))
      throw invalidParameter("address", "address must be one email address, such as ada@example.com.");
    query.address = address.toLowerCase();
  }
  const emailMessageId = read("emailMessageId");
  if (emailMessageId !== null) {
    if (emailMessageId === "" || emailMessageId.length > 64)
      throw invalidParameter("emailMessageId", "emailMessageId must be a message id (em_…).");
    query.emailMessageId = emailMessageId;
  }
  return query;
}

/** Newest conversation first, keyset cursors both ways as every list of the API; each without its messages. */
export async function listThreads(workspaceId: string, query: ThreadListQuery) {
  const { items, meta } = await keysetPage<typeof t.$inferSelect>(
    {
      db: await getDb(),
      table: t,
      createdAt: t.createdAt,
      id: t.id,
      scope: eq(t.workspaceId, workspaceId),
      filters: filtersOf(workspaceId, query),
    },
    { limit: query.limit, cursor: query.cursor },
  );
  return {
    meta,
    items: items.map((thread) => ({
      id: thread.id,
      type: "Thread" as const,
      subject: thread.subjectKey,
      participants: thread.participants,
      createdAt: isoTime(thread.createdAt),
      lastMessageAt: isoTime(thread.lastMessageAt),
    })),
  };
}

function filtersOf(workspaceId: string, query: ThreadListQuery): SQL[] {
  const filters: SQL[] = [];
  const { createdAt } = query;
  if (createdAt.gt) filters.push(gt(t.createdAt, createdAt.gt));
  if (createdAt.gte) filters.push(gte(t.createdAt, createdAt.gte));
  if (createdAt.lt) filters.push(lt(t.createdAt, createdAt.lt));
  if (createdAt.lte) filters.push(lte(t.createdAt, createdAt.lte));
  if (query.address) filters.push(sql`${query.address} = any(${t.participants})`);
  if (query.emailMessageId) {
    const sent = emailMessages;
    const im = inboundMessages;
    filters.push(
      sql`(${t.id} in (select ${sent.threadId} from ${sent} where ${and(eq(sent.workspaceId, workspaceId), eq(sent.id, query.emailMessageId))})
        or ${t.id} in (select ${im.threadId} from ${im} where ${and(eq(im.workspaceId, workspaceId), eq(im.originalMessageId, query.emailMessageId))}))`,
    );
  }
  return filters;
}
