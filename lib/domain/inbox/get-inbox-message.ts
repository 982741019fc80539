import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { localInbox } from "@/db/schema";
import { isId } from "@/lib/foundation/ids";

export interface InboxMessage {
  messageId: string;
  envelopeFrom: string;
  envelopeTo: string[];
  /** The exact MIME the local provider stored; empty once retention or an erase purged it. */
  mime: string;
  deliveredAt: Date;
}

/** Null for an unknown id, a message the local provider never took, and another workspace's alike. */
export async function getInboxMessage(workspaceId: string, messageId: string): Promise<InboxMessage | null> {
  if (!isId("message", messageId)) return null;
  const db = await getDb();
  const [row] = await db
    .select({
      messageId: localInbox.emailMessageId,
      envelopeFrom: localInbox.envelopeFrom,
      envelopeTo: localInbox.envelopeTo,
      mime: localInbox.mime,
      deliveredAt: localInbox.createdAt,
    })
    .from(localInbox)
    .where(and(eq(localInbox.workspaceId, workspaceId), eq(localInbox.emailMessageId, messageId)));
  return row ?? null;
}
