import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { unsubscribeGroups, workflows } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { AppError, notFound } from "@/lib/foundation/errors";
import type { UnsubscribeGroup } from "./update-unsubscribe-group";

/**
 * Its unsubscribes cascade. 409 naming the workflows while a step sends with its key (every run would fail); sent
 * messages keep the group id, and their links then find nothing.
 */
export async function deleteUnsubscribeGroupOrThrow(
  workspaceId: string,
  groupId: string,
  actor: AuditActor,
): Promise<UnsubscribeGroup> {
  return (await getDb()).transaction(async (tx) => {
    const where = and(eq(unsubscribeGroups.workspaceId, workspaceId), eq(unsubscribeGroups.id, groupId));
    const [group] = await tx.select().from(unsubscribeGroups).where(where).for("update");
    if (!group) throw notFound(`Unsubscribe group ${groupId}`, "id");
    const using = await tx
      .select({ id: workflows.id, name: workflows.name })
      .from(workflows)
      .where(
        and(
          eq(workflows.workspaceId, workspaceId),
          sql`${workflows.steps} @> ${JSON.stringify([{ groupKey: group.key }])}::jsonb`,
        ),
      )
      .limit(20);
    if (using.length > 0) {
      throw new AppError(
        "CONFLICT",
        `Workflows send with the group ${group.key}: ${using.map((w) => `${w.name} (${w.id})`).join(", ")}. Change them first.`,
        { param: "id" },
      );
    }
    await tx.delete(unsubscribeGroups).where(where);
    await recordAudit(tx, {
      workspaceId,
      actor,
      action: "unsubscribe_group.delete",
      target: { type: "unsubscribe_group", id: groupId },
      before: { key: group.key, name: group.name },
    });
    return group;
  });
}
