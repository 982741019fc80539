import "server-only";
import { desc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages, type MessageSource, type MessageStatus } from "@/db/schema";
import { DELIVERY_COLUMNS } from "@/lib/records/timeline/delivery-columns";
import type { DeliveryFacts } from "./delivery-state.shared";

export interface RecentMessage extends DeliveryFacts {
  id: string;
  status: MessageStatus;
  source: MessageSource;
  sandbox: boolean;
  to: string[];
  from: string;
  subject: string;
  templateId: string | null;
  createdAt: Date;
}

export const RECENT_MESSAGES_MAX = 50;

/** One range scan of the (workspace_id, created_at desc, id desc) index at any table size; list columns only. */
export async function listRecentMessages(
  workspaceId: string,
  options: { limit?: number } = {},
): Promise<RecentMessage[]> {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? RECENT_MESSAGES_MAX), 1), RECENT_MESSAGES_MAX);
  const db = await getDb();
  return db
    .select({
      ...DELIVERY_COLUMNS,
      id: emailMessages.id,
      status: emailMessages.status,
      source: emailMessages.source,
      sandbox: emailMessages.sandbox,
      to: emailMessages.to,
      from: emailMessages.from,
      subject: emailMessages.subject,
      templateId: emailMessages.templateId,
      createdAt: emailMessages.createdAt,
    })
    .from(emailMessages)
    .where(eq(emailMessages.workspaceId, workspaceId))
    .orderBy(desc(emailMessages.createdAt), desc(emailMessages.id))
    .limit(limit);
}
