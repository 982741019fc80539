import "server-only";
import { AUDIT_SYSTEM_ACTOR, auditActorOf } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { invitations, memberships, users, workspaces } from "@/db/schema";
import { env } from "@/lib/foundation/env";
import { AppError } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";
import { parseSingleAddress } from "@/lib/foundation/addresses/recipients.shared";
import { sendSystemMail } from "@/lib/sending/send-system-mail";
import { assertActorRole, assertMayGrant, type Actor } from "@/lib/foundation/access/actor";
import { invitationMail } from "./invitation-mail";
import { newInvitationToken, pendingIn } from "./invitation-token";
import { inviteMemberSchema, type InviteMemberInput } from "./schemas";
import { parseInput } from "@/lib/foundation/validation.shared";

export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

export interface InviteMemberResult {
  invitationId: string;
  email: string;
  expiresAt: Date;
  messageId: string;
  /** Only for the local provider, which never delivers; otherwise it stays in the invitee's mailbox (it can create the account). */
  localLink: string | null;
}

/**
 * ADMIN+ (an OWNER only by an OWNER). The link is mailed as system mail, valid 7 days, stored as its SHA-256 only;
 * a new invitation to the same address replaces the pending one.
 */
export async function inviteMember(actor: Actor, input: InviteMemberInput): Promise<InviteMemberResult> {
  assertActorRole(actor, "ADMIN", "invite members");
  const { email, role } = parseInput(inviteMemberSchema, input);
  assertMayGrant(actor, role, "invite owners");
  // The same parser as sending: an address the send path would refuse is refused here, before anything is stored.
  parseSingleAddress(email, "email", "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR");

  const db = await getDb();
  const { token, tokenHash } = newInvitationToken();
  const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);
  const invitationId = newId("invitation");
  const context = await db.transaction(async (tx) => {
    const [member] = await tx
      .select({ userId: users.id })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.workspaceId, actor.workspaceId), eq(users.email, email)));
    if (member) throw new AppError("CONFLICT", `${email} is already a member of this workspace.`, { param: "email" });
    await tx
      .update(invitations)
      .set({ revokedAt: new Date() })
      .where(and(pendingIn(actor.workspaceId), eq(invitations.email, email)));
    await tx.insert(invitations).values({
      id: invitationId,
      workspaceId: actor.workspaceId,
      email,
      role,
      tokenHash,
      invitedByUserId: actor.userId,
      expiresAt,
    });
    const target = { type: "invitation", id: invitationId };
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actor: auditActorOf(actor),
      action: "member.invite",
      target,
      after: { email, role, expiresAt },
    });
    const [workspace] = await tx
      .select({ name: workspaces.name })
      .from(workspaces)
      .where(eq(workspaces.id, actor.workspaceId));
    const [inviter] = await tx
      .select({ name: users.name, email: users.email })
      .from(users)
      .where(eq(users.id, actor.userId));
    return { workspaceName: workspace.name, inviter: inviter?.name || inviter?.email || "A colleague" };
  });

  const url = `${env().APP_URL}/invite/${token}`;
  const mail = invitationMail({ ...context, role, url, expiresAt });
  try {
    const messageId = await sendSystemMail({ to: email, ...mail });
    return { invitationId, email, expiresAt, messageId, localLink: env().DELIVERY_PROVIDER === "local" ? url : null };
  } catch (error) {
    // Mail never left: take the invitation back (the append-only log records that rather than losing the entry).
    await db.transaction(async (tx) => {
      await tx.delete(invitations).where(eq(invitations.id, invitationId));
      const target = { type: "invitation", id: invitationId };
      await recordAudit(tx, {
        workspaceId: actor.workspaceId,
        actor: AUDIT_SYSTEM_ACTOR,
        action: "member.invitation_withdraw",
        target,
        before: { email, role },
      });
    });
    throw error;
  }
}
