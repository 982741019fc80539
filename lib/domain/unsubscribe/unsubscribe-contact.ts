import "server-only";
import { getDb } from "@/db/client";
import { groupUnsubscribes } from "@/db/schema/suppressions";
import { newId } from "@/lib/foundation/ids";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { getUnsubscribeTargetOrThrowIn, type UnsubscribeTarget } from "./get-unsubscribe-target";

export type UnsubscribeMethod = "ONE_CLICK" | "PAGE";

/**
 * Unsubscribes from the message's group and records the event once per message and address, so a repeated POST (mail
 * clients retry) changes nothing. NOT_FOUND for a token not ours or naming nothing left.
 */
export async function unsubscribeContact(token: string, method: UnsubscribeMethod): Promise<UnsubscribeTarget> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const target = await getUnsubscribeTargetOrThrowIn(tx, token);
    await tx
      .insert(groupUnsubscribes)
      .values({
        id: newId("unsubscribe"),
        workspaceId: target.workspaceId,
        groupId: target.group.id,
        email: target.email,
        emailMessageId: target.messageId,
      })
      .onConflictDoNothing();
    await recordEvent(tx, {
      workspaceId: target.workspaceId,
      messageId: target.messageId,
      code: "EMAIL_MESSAGE_CONTACT_UNSUBSCRIBED",
      message: `${target.email} unsubscribed from the group "${target.group.name}" (${method === "ONE_CLICK" ? "one-click, RFC 8058" : "unsubscribe page"}).`,
      providerEventId: `unsubscribe:${target.email}`,
      details: { email: target.email, groupId: target.group.id, groupKey: target.group.key, method },
    });
    return { ...target, unsubscribed: true };
  });
}
