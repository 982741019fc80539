import "server-only";
import { auditActorOf } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { memberships } from "@/db/schema";
import { assertActorRole, assertMayGrant, type Actor } from "@/lib/foundation/access/actor";
import { assertAnotherOwner, lockMembership } from "./change-member-role";

/** ADMIN+ (owners only by owners; never the last owner); takes effect at the user's next request. */
export async function removeMember(actor: Actor, userId: string): Promise<void> {
  assertActorRole(actor, "ADMIN", "remove members");
  const db = await getDb();
  await db.transaction(async (tx) => {
    const role = await lockMembership(tx, actor.workspaceId, userId);
    assertMayGrant(actor, role, "remove owners");
    if (role === "OWNER") await assertAnotherOwner(tx, actor.workspaceId, "removed");
    await tx
      .delete(memberships)
      .where(and(eq(memberships.workspaceId, actor.workspaceId), eq(memberships.userId, userId)));
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actor: auditActorOf(actor),
      action: "member.remove",
      target: { type: "user", id: userId },
      before: { role },
    });
  });
}
