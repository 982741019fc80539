import "server-only";
import { auditActorOf } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { and, eq } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { memberships } from "@/db/schema";
import { AppError, notFound } from "@/lib/foundation/errors";
import { assertActorRole, assertMayGrant, type Actor } from "@/lib/foundation/access/actor";
import type { Role } from "@/lib/foundation/access/roles.shared";
import { changeMemberRoleSchema, type ChangeMemberRoleInput } from "./schemas";
import { parseInput } from "@/lib/foundation/validation.shared";

/** ADMIN+; only owners make or unmake owners, and the owner rows are locked so the last owner can never be demoted. */
export async function changeMemberRole(
  actor: Actor,
  input: ChangeMemberRoleInput,
): Promise<{ userId: string; role: Role }> {
  assertActorRole(actor, "ADMIN", "change roles");
  const { userId, role } = parseInput(changeMemberRoleSchema, input);
  assertMayGrant(actor, role, "make owners");
  const db = await getDb();
  return db.transaction(async (tx) => {
    const current = await lockMembership(tx, actor.workspaceId, userId);
    assertMayGrant(actor, current, "change an owner's role");
    if (current === "OWNER" && role !== "OWNER") await assertAnotherOwner(tx, actor.workspaceId, "demoted");
    if (current !== role) {
      await tx
        .update(memberships)
        .set({ role })
        .where(and(eq(memberships.workspaceId, actor.workspaceId), eq(memberships.userId, userId)));
      await recordAudit(tx, {
        workspaceId: actor.workspaceId,
        actor: auditActorOf(actor),
        action: "member.role_change",
        target: { type: "user", id: userId },
        before: { role: current },
        after: { role },
      });
    }
    return { userId, role };
  });
}

/** The member's role in the workspace, row locked; another workspace's member is simply not found. */
export async function lockMembership(tx: Tx, workspaceId: string, userId: string): Promise<Role> {
  const [membership] = await tx
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .for("update");
  if (!membership) throw notFound(`Member ${userId}`, "userId");
  return membership.role;
}

export async function assertAnotherOwner(tx: Tx, workspaceId: string, verb: string): Promise<void> {
  const owners = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.role, "OWNER")))
    .for("update");
  if (owners.length <= 1) {
    throw new AppError("CONFLICT", `The last owner cannot be ${verb}: make someone else owner first.`, {
      param: "userId",
    });
  }
}
