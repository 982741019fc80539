import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { notFoundOrPurged } from "./not-found-or-purged";

/** Tenant-scoped: an unknown id and another workspace's id give the same 404 (410 past the retention window). */
export async function getMessageOrThrow(workspaceId: string, messageId: string) {
  const db = await getDb();
  const [message] = await db
    .select()
    .from(emailMessages)
    .where(and(eq(emailMessages.workspaceId, workspaceId), eq(emailMessages.id, messageId)));
  if (!message) throw await notFoundOrPurged(db, workspaceId, messageId, "Email message");
  return message;
}

export type EmailMessageRow = Awaited<ReturnType<typeof getMessageOrThrow>>;
