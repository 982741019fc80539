import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages, invitations, localInbox } from "@/db/schema";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { env } from "@/lib/foundation/env";
import { listUserWorkspaces } from "@/lib/flows/members/list-user-workspaces";
import { verifyCredentials } from "@/lib/domain/users/verify-credentials";
import { SYSTEM_WORKSPACE_ID } from "@/lib/domain/workspaces/system-workspace";
import { acceptInvitation, acceptInvitationAsNewUser, getInvitationByToken } from "./accept-invitation";
import { hashInvitationToken } from "./invitation-token";
import { inviteMember } from "./invite-member";
import { listPendingInvitations } from "./list-invitations";
import { revokeInvitation } from "./revoke-invitation";
import {
  addPerson,
  invitationRow,
  linkInMessage,
  membershipsOf,
  tokenOf,
  uniqueEmail,
  workspaceWithOwner,
} from "./test-helpers";

describe("inviteMember", () => {
  it("stores only the token's SHA-256 and mails the link as system mail, never in the tenant workspace", async () => {
    const { workspace, actor } = await workspaceWithOwner();
    const email = uniqueEmail("new");
    const result = await inviteMember(actor, { email: `  ${email.toUpperCase()} `, role: "ADMIN" });
    expect(result.email).toBe(email);
    expect(result.expiresAt.getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);

    const link = await linkInMessage(result.messageId);
    expect(link).toMatch(new RegExp(`^${env().APP_URL}/invite/[\\w-]{43}$`));
    // The local provider delivers nowhere, so the inviter gets the link to hand over.
    expect(result.localLink).toBe(link);
    const row = await invitationRow(result.invitationId);
    expect(row).toMatchObject({
      workspaceId: workspace.id,
      email,
      role: "ADMIN",
      invitedByUserId: actor.userId,
      acceptedAt: null,
    });
    expect(row.tokenHash).toBe(hashInvitationToken(tokenOf(link)));
    expect(row.tokenHash).not.toContain(tokenOf(link));

    const db = await getDb();
    const [message] = await db.select().from(emailMessages).where(eq(emailMessages.id, result.messageId));
    expect(message).toMatchObject({ workspaceId: SYSTEM_WORKSPACE_ID, sandbox: false, toAddresses: [email] });
    expect(message.subject).toContain(workspace.name);
    expect(await db.select().from(emailMessages).where(eq(emailMessages.workspaceId, workspace.id))).toHaveLength(0);

    // Delivered by the configured (local) provider: it lands in the System mail inbox only.
    await deliverMessage({ workspaceId: SYSTEM_WORKSPACE_ID, messageId: result.messageId }, { attempt: 0 });
    const [inbox] = await db.select().from(localInbox).where(eq(localInbox.emailMessageId, result.messageId));
    expect(inbox.workspaceId).toBe(SYSTEM_WORKSPACE_ID);
    expect(inbox.mime).toContain("/invite/");
    expect(await db.select().from(localInbox).where(eq(localInbox.workspaceId, workspace.id))).toHaveLength(0);
  });

  it("refuses members and lets only owners invite owners; nothing is stored", async () => {
    const { workspace } = await workspaceWithOwner();
    const { actor: member } = await addPerson(workspace.id, "MEMBER");
    const { actor: admin } = await addPerson(workspace.id, "ADMIN");
    await expect(inviteMember(member, { email: uniqueEmail("x"), role: "MEMBER" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(inviteMember(admin, { email: uniqueEmail("x"), role: "OWNER" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(inviteMember(admin, { email: "not-an-email", role: "MEMBER" })).rejects.toMatchObject({
      param: "email",
    });
    await expect(inviteMember(admin, { email: uniqueEmail("x"), role: "BOSS" as never })).rejects.toMatchObject({
      param: "role",
    });
    expect(await listPendingInvitations(workspace.id)).toHaveLength(0);
    await inviteMember(admin, { email: uniqueEmail("ok"), role: "ADMIN" });
    expect(await listPendingInvitations(workspace.id)).toHaveLength(1);
  });

  it("refuses an existing member, and a second invitation replaces the pending one", async () => {
    const { workspace, actor, owner } = await workspaceWithOwner();
    await expect(inviteMember(actor, { email: owner.email, role: "MEMBER" })).rejects.toMatchObject({
      code: "CONFLICT",
      param: "email",
    });
    const email = uniqueEmail("twice");
    const first = await inviteMember(actor, { email, role: "MEMBER" });
    const second = await inviteMember(actor, { email, role: "ADMIN" });
    const pending = await listPendingInvitations(workspace.id);
    expect(pending.map((invitation) => invitation.id)).toEqual([second.invitationId]);
    expect(pending[0]).toMatchObject({ email, role: "ADMIN", invitedBy: "Olga Owner" });
    expect((await getInvitationByToken(tokenOf(await linkInMessage(first.messageId)))).state).toBe("revoked");
  });
});

describe("accepting an invitation", () => {
  it("a new address chooses a password, joins with the invited role, can sign in; the link then is used", async () => {
    const { workspace, actor } = await workspaceWithOwner();
    const email = uniqueEmail("newbie");
    const { messageId } = await inviteMember(actor, { email, role: "MEMBER" });
    const token = tokenOf(await linkInMessage(messageId));
    expect(await getInvitationByToken(token)).toMatchObject({
      state: "pending",
      email,
      role: "MEMBER",
      workspaceName: workspace.name,
      accountExists: false,
    });

    await expect(acceptInvitationAsNewUser(token, { password: "short" })).rejects.toMatchObject({ param: "password" });
    const accepted = await acceptInvitationAsNewUser(token, { name: "Nina", password: "nina-password" });
    expect(accepted).toEqual({ email, workspaceId: workspace.id });
    const user = await verifyCredentials(email, "nina-password");
    expect(user).toMatchObject({ email, name: "Nina" });
    expect(await listUserWorkspaces(user!.id)).toEqual([{ id: workspace.id, name: workspace.name, role: "MEMBER" }]);

    expect((await getInvitationByToken(token)).state).toBe("accepted");
    await expect(acceptInvitationAsNewUser(token, { password: "another-password" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    await expect(acceptInvitation(token, user!.id)).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("a signed-in user with the invited address joins; another signed-in user is refused", async () => {
    const { workspace: teamA, actor } = await workspaceWithOwner();
    const { workspace: teamB } = await workspaceWithOwner();
    const { user: invitee } = await addPerson(teamB.id, "MEMBER");
    const { user: stranger } = await addPerson(teamB.id, "ADMIN");
    const { messageId } = await inviteMember(actor, { email: invitee.email, role: "ADMIN" });
    const token = tokenOf(await linkInMessage(messageId));
    expect((await getInvitationByToken(token)).accountExists).toBe(true);
    await expect(acceptInvitationAsNewUser(token, { password: "whatever-password" })).rejects.toMatchObject({
      code: "CONFLICT",
    });

    await expect(acceptInvitation(token, stranger.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await membershipsOf(teamA.id)).map((m) => m.userId)).not.toContain(stranger.id);

    expect(await acceptInvitation(token, invitee.id)).toEqual({ workspaceId: teamA.id });
    const roles = await listUserWorkspaces(invitee.id);
    expect(roles).toEqual(
      expect.arrayContaining([
        { id: teamA.id, name: teamA.name, role: "ADMIN" },
        { id: teamB.id, name: teamB.name, role: "MEMBER" },
      ]),
    );
  });

  it("expired, revoked and unknown links are refused and change nothing", async () => {
    const { workspace, actor } = await workspaceWithOwner();
    const expired = await inviteMember(actor, { email: uniqueEmail("late"), role: "MEMBER" });
    await (
      await getDb()
    )
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.id, expired.invitationId));
    const expiredToken = tokenOf(await linkInMessage(expired.messageId));
    expect((await getInvitationByToken(expiredToken)).state).toBe("expired");
    await expect(acceptInvitationAsNewUser(expiredToken, { password: "long-enough" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("expired"),
    });

    const revoked = await inviteMember(actor, { email: uniqueEmail("gone"), role: "MEMBER" });
    await revokeInvitation(actor, revoked.invitationId);
    const revokedToken = tokenOf(await linkInMessage(revoked.messageId));
    expect((await getInvitationByToken(revokedToken)).state).toBe("revoked");
    await expect(acceptInvitationAsNewUser(revokedToken, { password: "long-enough" })).rejects.toMatchObject({
      message: expect.stringContaining("revoked"),
    });

    const unknown = "A".repeat(43);
    expect((await getInvitationByToken(unknown)).state).toBe("unknown");
    expect((await getInvitationByToken("../etc")).state).toBe("unknown");
    await expect(acceptInvitationAsNewUser(unknown, { password: "long-enough" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await membershipsOf(workspace.id)).toHaveLength(1);
  });
});

describe("revokeInvitation", () => {
  it("needs an admin, and another workspace's invitation is NOT_FOUND and stays pending", async () => {
    const { workspace: teamA, actor: ownerA } = await workspaceWithOwner();
    const { actor: ownerB } = await workspaceWithOwner();
    const { actor: memberA } = await addPerson(teamA.id, "MEMBER");
    const invitation = await inviteMember(ownerA, { email: uniqueEmail("keep"), role: "MEMBER" });

    await expect(revokeInvitation(memberA, invitation.invitationId)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(revokeInvitation(ownerB, invitation.invitationId)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(revokeInvitation(ownerB, "inv_nonsense")).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await invitationRow(invitation.invitationId)).revokedAt).toBeNull();

    await revokeInvitation(ownerA, invitation.invitationId);
    expect((await invitationRow(invitation.invitationId)).revokedAt).toBeInstanceOf(Date);
    await expect(revokeInvitation(ownerA, invitation.invitationId)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await listPendingInvitations(teamA.id)).toHaveLength(0);
  });
});
