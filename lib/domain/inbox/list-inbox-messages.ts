import "server-only";
import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages, localInbox } from "@/db/schema";
import { invalidParameter } from "@/lib/foundation/errors";
import { parseKeysetPageQuery, type KeysetPageQuery } from "@/lib/foundation/pagination";

export const INBOX_PAGE_SIZE = 50;

export interface InboxListItem {
  messageId: string;
  from: string;
  to: string[];
  subject: string;
  /** When the message was created: the Date of its MIME and the order of the list. */
  date: Date;
  deliveredAt: Date;
  /** Retention or an erase removed the stored MIME (the row stays, so the list does not lie). */
  purged: boolean;
}

export interface InboxPage {
  items: InboxListItem[];
  olderCursor: string | null;
  newerCursor: string | null;
}

export type InboxListQuery = KeysetPageQuery;

/** The Local inbox page's URL: `limit` up to 50, `cursor.after` or `cursor.before`. */
export function parseInboxListQuery(params: URLSearchParams): InboxListQuery {
  return parseKeysetPageQuery(params, { maxLimit: INBOX_PAGE_SIZE });
}

const m = emailMessages;
const i = localInbox;

/** Keyset on the email_messages index joined to local_inbox by key, which has no index on workspace and time. */
export async function listInboxMessages(workspaceId: string, page: InboxListQuery): Promise<InboxPage> {
  const db = await getDb();
  const scope = and(eq(m.workspaceId, workspaceId), eq(i.workspaceId, workspaceId));
  let anchor: { createdAt: Date; id: string } | undefined;
  if (page.cursor) {
    [anchor] = await db
      .select({ createdAt: m.createdAt, id: m.id })
      .from(i)
      .innerJoin(m, eq(m.id, i.emailMessageId))
      .where(and(scope, eq(m.id, page.cursor.id)));
    if (!anchor)
      throw invalidParameter(
        `cursor.${page.cursor.direction}`,
        `No message ${page.cursor.id} in the inbox to page from.`,
      );
  }
  const older = (row: { createdAt: Date; id: string }) =>
    sql`(${m.createdAt}, ${m.id}) < (${row.createdAt.toISOString()}::timestamptz, ${row.id})`;
  const newer = (row: { createdAt: Date; id: string }) =>
    sql`(${m.createdAt}, ${m.id}) > (${row.createdAt.toISOString()}::timestamptz, ${row.id})`;
  const backwards = page.cursor?.direction === "before";
  const rows = await db
    .select({
      messageId: m.id,
      from: m.from,
      to: m.to,
      subject: m.subject,
      status: m.status,
      date: m.createdAt,
      deliveredAt: i.createdAt,
      mimeLength: sql<number>`length(${i.mime})`,
    })
    .from(i)
    .innerJoin(m, eq(m.id, i.emailMessageId))
    .where(and(scope, anchor ? (backwards ? newer(anchor) : older(anchor)) : undefined))
    .orderBy(...(backwards ? [asc(m.createdAt), asc(m.id)] : [desc(m.createdAt), desc(m.id)]))
    .limit(page.limit + 1);
  const more = rows.length > page.limit;
  const pageRows = rows.slice(0, page.limit);
  if (backwards) pageRows.reverse();
  const exists = async (condition: SQL) =>
    (
      await db
        .select({ id: m.id })
        .from(i)
        .innerJoin(m, eq(m.id, i.emailMessageId))
        .where(and(scope, condition))
        .limit(1)
    ).length > 0;
  const first = pageRows[0];
  const last = pageRows[pageRows.length - 1];
  const hasOlder = backwards ? !!last && (await exists(older({ createdAt: last.date, id: last.messageId }))) : more;
  const hasNewer = backwards
    ? more
    : !!first && !!anchor && (await exists(newer({ createdAt: first.date, id: first.messageId })));
  return {
    items: pageRows.map(({ status, mimeLength, ...row }) => ({
      ...row,
      subject: status === "DELETED" ? "" : row.subject,
      purged: status === "DELETED" || Number(mimeLength) === 0,
    })),
    olderCursor: hasOlder ? last.messageId : null,
    newerCursor: hasNewer ? first.messageId : null,
  };
}
