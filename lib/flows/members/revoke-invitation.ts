import "server-only";
import { auditActorOf } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { invitations } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";
import { isId } from "@/lib/foundation/ids";
import { assertActorRole, type Actor } from "@/lib/foundation/access/actor";
import { pendingIn } from "./invitation-token";

/** Revokes a pending invitation of the actor's workspace (ADMIN+); its link stops working at once. */
export async function revokeInvitation(actor: Actor, invitationId: string): Promise<void> {
  assertActorRole(actor, "ADMIN", "revoke invitations");
  if (!isId("invitation", invitationId)) throw notFound(`Invitation ${invitationId}`, "invitationId");
  const db = await getDb();
  await db.transaction(async (tx) => {
    const revoked = await tx
      .update(invitations)
      .set({ revokedAt: new Date() })
      .where(and(eq(invitations.id, invitationId), pendingIn(actor.workspaceId)))
      .returning({ id: invitations.id, email: invitations.email, role: invitations.role });
    // Another workspace's invitation, a used one and an unknown id are the same answer.
    if (revoked.length === 0) throw notFound(`Invitation ${invitationId}`, "invitationId");
    const [{ email, role }] = revoked;
    const target = { type: "invitation", id: invitationId };
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actor: auditActorOf(actor),
      action: "member.invitation_revoke",
      target,
      before: { email, role },
    });
  });
}
