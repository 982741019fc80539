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
  /** Contacts who unsubscribed from the group (served by the group_unsubscribes unique index). */
  unsubscribedCount: number;
  /** Messages sent with the group, counted up to GROUP_MESSAGE_COUNT_CAP (+1 means "more"). */
  messageCount: number;
}

/**
 * A workspace's unsubscribe groups by name, with their counts. The message count is capped: there is
 * no index on email_messages.group_id, so each count is bounded to GROUP_MESSAGE_COUNT_CAP + 1 rows.
 */
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
      // Written as SQL: the correlated subqueries must name the outer table explicitly.
      unsubscribedCount: sql<number>`(select count(*) from group_unsubscribes u where u.workspace_id = ${workspaceId} and u.group_id = unsubscribe_groups.id)`.mapWith(Number),
      messageCount: sql<number>`(select count(*) from (select 1 from email_messages m where m.workspace_id = ${workspaceId} and m.group_id = unsubscribe_groups.id limit ${GROUP_MESSAGE_COUNT_CAP + 1}) capped)`.mapWith(Number),
    })
    .from(unsubscribeGroups)
    .where(and(eq(unsubscribeGroups.workspaceId, workspaceId), where))
    .orderBy(asc(unsubscribeGroups.name), asc(unsubscribeGroups.id))
    .limit(200);
}
