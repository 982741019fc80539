import "server-only";
import { getDb } from "@/db/client";
import { unsubscribeGroups } from "@/db/schema";
import { AUDIT_SYSTEM_ACTOR, type AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { invalidParameter } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";

export const GROUP_KEY_PATTERN = /^[a-zA-Z0-9_.:-]{1,100}$/;

/** Sends name it by groupId or groupKey (docs/api.md#decided-unsubscribe-groups-suppression-contacts); the key is unique in the workspace. */
export async function createUnsubscribeGroup(input: {
  workspaceId: string;
  key: string;
  name: string;
  actor?: AuditActor;
}) {
  const key = input.key.trim();
  const name = input.name.trim();
  if (!GROUP_KEY_PATTERN.test(key)) throw invalidParameter("key", "key must be 1–100 letters, digits, or _ . : -");
  if (name === "" || name.length > 200) throw invalidParameter("name", "name must be 1–200 characters.");
  return (await getDb()).transaction(async (tx) => {
    const [group] = await tx
      .insert(unsubscribeGroups)
      .values({ id: newId("group"), workspaceId: input.workspaceId, key, name })
      .onConflictDoNothing()
      .returning();
    if (!group) throw invalidParameter("key", `The workspace already has an unsubscribe group with the key ${key}.`);
    const target = { type: "unsubscribe_group", id: group.id };
    await recordAudit(tx, {
      workspaceId: group.workspaceId,
      actor: input.actor ?? AUDIT_SYSTEM_ACTOR,
      action: "unsubscribe_group.create",
      target,
      after: { key, name },
    });
    return group;
  });
}
