import "server-only";
import { and, eq, inArray, notInArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { contacts, groupUnsubscribes, unsubscribeGroups } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { invalidParameter, notFound } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";

/** Exactly `groupIds` (empty: subscribed again to every group), as an admin for the contact; groups left keep their original unsubscribe. */
export async function setContactUnsubscribes(
  workspaceId: string,
  contactId: string,
  groupIds: string[],
  actor: AuditActor,
): Promise<string[]> {
  const wanted = [...new Set(groupIds)];
  return (await getDb()).transaction(async (tx) => {
    const [contact] = await tx
      .select({ email: contacts.email })
      .from(contacts)
      .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, contactId)));
    if (!contact) throw notFound(`Contact ${contactId}`, "id");
    const known = wanted.length
      ? new Set(
          (
            await tx
              .select({ id: unsubscribeGroups.id })
              .from(unsubscribeGroups)
              .where(and(eq(unsubscribeGroups.workspaceId, workspaceId), inArray(unsubscribeGroups.id, wanted)))
          ).map((g) => g.id),
        )
      : new Set<string>();
    const unknown = groupIds.findIndex((id) => !known.has(id));
    if (unknown !== -1)
      throw invalidParameter(
        `groupIds[${unknown}]`,
        `${groupIds[unknown]} is not an unsubscribe group of this workspace.`,
      );
    const mine = and(eq(groupUnsubscribes.workspaceId, workspaceId), eq(groupUnsubscribes.email, contact.email));
    const before = (await tx.select({ groupId: groupUnsubscribes.groupId }).from(groupUnsubscribes).where(mine))
      .map((row) => row.groupId)
      .sort();
    await tx
      .delete(groupUnsubscribes)
      .where(wanted.length ? and(mine, notInArray(groupUnsubscribes.groupId, wanted)) : mine);
    const added = wanted.filter((id) => !before.includes(id));
    if (added.length) {
      await tx
        .insert(groupUnsubscribes)
        .values(added.map((groupId) => ({ id: newId("unsubscribe"), workspaceId, groupId, email: contact.email })))
        .onConflictDoNothing();
    }
    const after = [...wanted].sort();
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      await recordAudit(tx, {
        workspaceId,
        actor,
        action: "contact.unsubscribes",
        target: { type: "contact", id: contactId },
        before: { email: contact.email, groupIds: before },
        after: { email: contact.email, groupIds: after },
      });
    }
    return after;
  });
}
