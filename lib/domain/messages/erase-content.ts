import "server-only";
import { and, inArray, isNull, notInArray, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { emailMessages, localInbox } from "@/db/schema";

export interface EraseContentOptions {
  /** Also erase the subject (an erase or discard; retention keeps it to tell messages apart). */
  subject: boolean;
  /** Retention: leave messages still waiting for delivery alone, whatever their age. */
  skipWaiting?: boolean;
}

/**
 * Removes stored content in two statements; addresses, metadata and events stay. Uploaded attachments are untouched:
 * their bytes belong to the attachment, which another message may use. Returns the ids erased.
 */
export async function eraseStoredContent(
  db: Executor,
  messageIds: string[],
  options: EraseContentOptions,
): Promise<string[]> {
  if (messageIds.length === 0) return [];
  const m = emailMessages;
  const now = new Date();
  const erased = await db
    .update(m)
    .set({
      bodyHtml: "",
      bodyText: "",
      variables: {},
      ...(options.subject ? { subject: "" } : {}),
      attachments: sql`(select coalesce(jsonb_agg(item - 'contentBase64' order by position), '[]'::jsonb)
        from jsonb_array_elements(${m.attachments}) with ordinality as a(item, position))`,
      contentPurgedAt: sql`coalesce(${m.contentPurgedAt}, ${now.toISOString()}::timestamptz)`,
      updatedAt: now,
    })
    .where(
      and(
        inArray(m.id, messageIds),
        options.skipWaiting ? and(isNull(m.contentPurgedAt), notInArray(m.status, ["PENDING", "PAUSED"])) : undefined,
      ),
    )
    .returning({ id: m.id });
  const ids = erased.map((row) => row.id);
  if (ids.length > 0) await db.delete(localInbox).where(inArray(localInbox.emailMessageId, ids));
  return ids;
}
