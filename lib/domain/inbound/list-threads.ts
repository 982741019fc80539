import "server-only";
import { and, eq, gt, gte, lt, lte, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db/client";
import { keysetPage } from "@/db/keyset";
import { emailMessages, inboundMessages, inboundThreads as t } from "@/db/schema";
import { isoTime } from "@/lib/foundation/iso-time";
import type { ThreadListQuery } from "./inbound-list-query";

// The keyset walks (last_message_at, id) (inbound_threads_activity_idx): keysetPage's `createdAt` key is the thread's
// last activity here, its start is read beside it. Decoded by column name, so one column may feed two keys.
const THREAD_COLUMNS = {
  createdAt: t.lastMessageAt,
  id: t.id,
  startedAt: t.createdAt,
  subjectKey: t.subjectKey,
  participants: t.participants,
};

interface ThreadRow {
  createdAt: Date;
  id: string;
  startedAt: Date;
  subjectKey: string;
  participants: string[];
}

/**
 * GET /v1/threads: the conversation with the newest mail first (keyset cursors both ways, as every list of the API),
 * each without its messages. A thread that gets mail while a client pages moves to the top: the cursor follows the
 * thread it names, so a page may repeat or skip a thread that moved, as an activity feed does.
 */
export async function listThreads(workspaceId: string, query: ThreadListQuery) {
  const { items, meta } = await keysetPage<ThreadRow>(
    {
      db: await getDb(),
      table: t,
      createdAt: t.lastMessageAt,
      id: t.id,
      scope: eq(t.workspaceId, workspaceId),
      filters: filtersOf(workspaceId, query),
      columns: THREAD_COLUMNS,
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
      createdAt: isoTime(thread.startedAt),
      lastMessageAt: isoTime(thread.createdAt),
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
