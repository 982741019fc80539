import "server-only";
import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db/client";
import { unsubscribeGroups } from "@/db/schema";

/** Counting stops here: an exact figure past it would mean reading every message of the group. */
export const GROUP_MESSAGE_COUNT_CAP = 10_000;

export interface UnsubscribeGroupSummary {
  id: string;
  key: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
  unsubscribedCount: number;
  /** Messages sent with the group, counted up to GROUP_MESSAGE_COUNT_CAP (+1 means "more"). */
  messageCount: number;
}

/** By name; each message count is bounded (no index on email_messages.group_id). */
export async function listUnsubscribeGroups(workspaceId: string): Promise<UnsubscribeGroupSummary[]> {
  return selectGroupSummaries(workspaceId);
}

/** The list's query, narrowed by `where` (get-unsubscribe-group.ts reads one group with its counts). */
export async function selectGroupSummaries(workspaceId: string, where?: SQL): Promise<UnsubscribeGroupSummary[]> {
  const db = await getDb();
  return db
    .select({
      id: unsubscribeGroups.id,
      key: unsubscribeGroups.key,
      name: unsubscribeGroups.name,
      createdAt: unsubscribeGroups.createdAt,
      updatedAt: unsubscribeGroups.updatedAt,
      unsubscribedCount:
        sql<number>`(select count(*) from group_unsubscribes u where u.workspace_id = ${workspaceId} and u.group_id = unsubscribe_groups.id)`.mapWith(
          Number,
        ),
      messageCount:
        sql<number>`(select count(*) from (select 1 from email_messages m where m.workspace_id = ${workspaceId} and m.group_id = unsubscribe_groups.id limit ${GROUP_MESSAGE_COUNT_CAP + 1}) capped)`.mapWith(
          Number,
        ),
    })
    .from(unsubscribeGroups)
    .where(and(eq(unsubscribeGroups.workspaceId, workspaceId), where))
    .orderBy(asc(unsubscribeGroups.name), asc(unsubscribeGroups.id))
    .limit(200);
}
