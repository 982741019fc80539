import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages, groupUnsubscribes, unsubscribeGroups, workflows } from "@/db/schema";
import { AUDIT_SYSTEM_ACTOR, type AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { invalidParameter, notFound } from "@/lib/foundation/errors";
import { GROUP_KEY_PATTERN } from "./create-unsubscribe-group";

export type UnsubscribeGroup = typeof unsubscribeGroups.$inferSelect;

/**
 * The key can change only while nothing refers to the group: code and workflows send by `groupKey`, and a silent rename
 * would 404 every send.
 */
export async function updateUnsubscribeGroupOrThrow(
  workspaceId: string,
  groupId: string,
  input: { name: string; key?: string },
  actor: AuditActor = AUDIT_SYSTEM_ACTOR,
): Promise<UnsubscribeGroup> {
  const name = input.name.trim();
  if (name === "" || name.length > 200) throw invalidParameter("name", "name must be 1–200 characters.");
  const db = await getDb();
  const [group] = await db
    .select()
    .from(unsubscribeGroups)
    .where(and(eq(unsubscribeGroups.workspaceId, workspaceId), eq(unsubscribeGroups.id, groupId)));
  if (!group) throw notFound(`Unsubscribe group ${groupId}`, "id");
  const key = input.key?.trim() ?? group.key;
  if (key !== group.key) {
    if (!GROUP_KEY_PATTERN.test(key)) throw invalidParameter("key", "key must be 1–100 letters, digits, or _ . : -");
    if (await isGroupUsed(workspaceId, group)) {
      throw invalidParameter(
        "key",
        `The key ${group.key} is in use (messages, unsubscribes or workflow steps name it), so it can no longer change.`,
      );
    }
  }
  try {
    return await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(unsubscribeGroups)
        .set({ name, key, updatedAt: new Date() })
        .where(and(eq(unsubscribeGroups.workspaceId, workspaceId), eq(unsubscribeGroups.id, groupId)))
        .returning();
      if (updated.name !== group.name || updated.key !== group.key) {
        const target = { type: "unsubscribe_group", id: groupId };
        await recordAudit(tx, {
          workspaceId,
          actor,
          action: "unsubscribe_group.update",
          target,
          before: { name: group.name, key: group.key },
          after: { name, key },
        });
      }
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw invalidParameter("key", `The workspace already has an unsubscribe group with the key ${key}.`);
    throw error;
  }
}

/** True once a message, an unsubscribe or a workflow step refers to the group. */
export async function isGroupUsed(workspaceId: string, group: Pick<UnsubscribeGroup, "id" | "key">): Promise<boolean> {
  const db = await getDb();
  const probes = await Promise.all([
    db
      .select({ id: emailMessages.id })
      .from(emailMessages)
      .where(and(eq(emailMessages.workspaceId, workspaceId), eq(emailMessages.groupId, group.id)))
      .limit(1),
    db
      .select({ id: groupUnsubscribes.id })
      .from(groupUnsubscribes)
      .where(and(eq(groupUnsubscribes.workspaceId, workspaceId), eq(groupUnsubscribes.groupId, group.id)))
      .limit(1),
    db
      .select({ id: workflows.id })
      .from(workflows)
      .where(
        and(
          eq(workflows.workspaceId, workspaceId),
          sql`${workflows.steps} @> ${JSON.stringify([{ groupKey: group.key }])}::jsonb`,
        ),
      )
      .limit(1),
  ]);
  return probes.some((rows) => rows.length > 0);
}

function isUniqueViolation(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } }).code ??
    (error as { cause?: { code?: string } }).cause?.code;
  return code === "23505";
}
