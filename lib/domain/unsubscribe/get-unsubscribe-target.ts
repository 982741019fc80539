import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { emailMessages, unsubscribeGroups } from "@/db/schema";
import { groupUnsubscribes } from "@/db/schema/suppressions";
import { notFound } from "@/lib/foundation/errors";
import { verifyUnsubscribeToken } from "./token";

export interface UnsubscribeTarget {
  workspaceId: string;
  messageId: string;
  email: string;
  group: { id: string; key: string; name: string };
  unsubscribed: boolean;
}

/** Reads only (link scanners prefetch GETs); anything forged, gone or without a group is the same NOT_FOUND. */
export async function getUnsubscribeTargetOrThrow(token: string): Promise<UnsubscribeTarget> {
  return getUnsubscribeTargetOrThrowIn(await getDb(), token);
}

/** The same on the caller's database or transaction. */
export async function getUnsubscribeTargetOrThrowIn(db: Executor, token: string): Promise<UnsubscribeTarget> {
  const claim = verifyUnsubscribeToken(token);
  if (!claim) throw notFound("Unsubscribe link");
  // The token is signed by this service, so its message id alone names the workspace.
  const [row] = await db
    .select({
      workspaceId: emailMessages.workspaceId,
      group: { id: unsubscribeGroups.id, key: unsubscribeGroups.key, name: unsubscribeGroups.name },
    })
    .from(emailMessages)
    .innerJoin(
      unsubscribeGroups,
      and(
        eq(unsubscribeGroups.id, emailMessages.groupId),
        eq(unsubscribeGroups.workspaceId, emailMessages.workspaceId),
      ),
    )
    .where(eq(emailMessages.id, claim.messageId));
  if (!row) throw notFound("Unsubscribe link");
  const [existing] = await db
    .select({ id: groupUnsubscribes.id })
    .from(groupUnsubscribes)
    .where(
      and(
        eq(groupUnsubscribes.workspaceId, row.workspaceId),
        eq(groupUnsubscribes.groupId, row.group.id),
        eq(groupUnsubscribes.email, claim.address),
      ),
    );
  return {
    workspaceId: row.workspaceId,
    messageId: claim.messageId,
    email: claim.address,
    group: row.group,
    unsubscribed: Boolean(existing),
  };
}
