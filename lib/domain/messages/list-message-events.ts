import "server-only";
import { and, count, desc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessageLogs } from "@/db/schema";
import { invalidParameter } from "@/lib/foundation/errors";
import { getMessageOrThrow } from "./get-message-or-throw";

export const EVENTS_PAGE_SIZE = 50;

/** GET /v1/email_messages/:id/events: newest first, page-numbered (1-based), 50 a page. */
export async function listMessageEvents(workspaceId: string, messageId: string, pageParam: string | null) {
  const page = parsePage(pageParam);
  const db = await getDb();
  await getMessageOrThrow(workspaceId, messageId);
  const where = and(eq(emailMessageLogs.workspaceId, workspaceId), eq(emailMessageLogs.emailMessageId, messageId));
  const [{ total }] = await db.select({ total: count() }).from(emailMessageLogs).where(where);
  const events = await db
    .select()
    .from(emailMessageLogs)
    .where(where)
    .orderBy(desc(emailMessageLogs.createdAt), desc(emailMessageLogs.id))
    .limit(EVENTS_PAGE_SIZE)
    .offset((page - 1) * EVENTS_PAGE_SIZE);
  return { events, total: Number(total), page, limit: EVENTS_PAGE_SIZE };
}

function parsePage(value: string | null): number {
  if (value === null || value === "") return 1;
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1)
    throw invalidParameter("page", "page must be a whole number from 1.");
  return Number(value);
}
