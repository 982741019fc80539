import "server-only";
import { eq } from "drizzle-orm";
import { unsubscribeGroups } from "@/db/schema";
import { selectGroupSummaries, type UnsubscribeGroupSummary } from "./list-unsubscribe-groups";
import { isGroupUsed } from "./update-unsubscribe-group";

/** One group of the workspace with its counts and whether its key is still free to change; null when not ours. */
export async function getUnsubscribeGroup(
  workspaceId: string,
  groupId: string,
): Promise<(UnsubscribeGroupSummary & { keyLocked: boolean }) | null> {
  const [group] = await selectGroupSummaries(workspaceId, eq(unsubscribeGroups.id, groupId));
  if (!group) return null;
  return { ...group, keyLocked: await isGroupUsed(workspaceId, group) };
}
