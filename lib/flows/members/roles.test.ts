import { describe, expect, it } from "vitest";
import { changeMemberRole } from "./change-member-role";
import { listMembers } from "./list-members";
import { removeMember } from "./remove-member";
import { addPerson, membershipsOf, workspaceWithOwner } from "./test-helpers";

const roleOf = async (workspaceId: string, userId: string) =>
  (await membershipsOf(workspaceId)).find((m) => m.userId === userId)?.role;

describe("changeMemberRole", () => {
  it("admins change members and admins; only owners make or unmake owners", async () => {
    const { workspace, owner, actor: ownerActor } = await workspaceWithOwner();
    const { user: member, actor: memberActor } = await addPerson(workspace.id, "MEMBER");
    const { user: admin, actor: adminActor } = await addPerson(workspace.id, "ADMIN");

    await expect(changeMemberRole(memberActor, { userId: admin.id, role: "MEMBER" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(changeMemberRole(memberActor, { userId: member.id, role: "ADMIN" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await roleOf(workspace.id, member.id)).toBe("MEMBER");

    await changeMemberRole(adminActor, { userId: member.id, role: "ADMIN" });
    expect(await roleOf(workspace.id, member.id)).toBe("ADMIN");
    await expect(changeMemberRole(adminActor, { userId: member.id, role: "OWNER" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(changeMemberRole(adminActor, { userId: owner.id, role: "MEMBER" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await roleOf(workspace.id, owner.id)).toBe("OWNER");

    await changeMemberRole(ownerActor, { userId: admin.id, role: "OWNER" });
    expect(await roleOf(workspace.id, admin.id)).toBe("OWNER");
    await expect(changeMemberRole(ownerActor, { userId: admin.id, role: "KING" as never })).rejects.toMatchObject({
      param: "role",
    });
  });

  it("never demotes the last owner, but an owner may step down once another owner exists", async () => {
    const { workspace, owner, actor } = await workspaceWithOwner();
    await expect(changeMemberRole(actor, { userId: owner.id, role: "ADMIN" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("last owner"),
    });
    const { user: second } = await addPerson(workspace.id, "OWNER");
    await changeMemberRole(actor, { userId: owner.id, role: "ADMIN" });
    expect(await roleOf(workspace.id, owner.id)).toBe("ADMIN");
    const secondActor = { userId: second.id, workspaceId: workspace.id, role: "OWNER" as const };
    await expect(changeMemberRole(secondActor, { userId: second.id, role: "MEMBER" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
  });

  it("a member of another workspace is NOT_FOUND and keeps their role", async () => {
    const { actor: ownerA } = await workspaceWithOwner();
    const { workspace: teamB, owner: ownerB } = await workspaceWithOwner();
    const { user: memberB } = await addPerson(teamB.id, "MEMBER");
    await expect(changeMemberRole(ownerA, { userId: memberB.id, role: "ADMIN" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(changeMemberRole(ownerA, { userId: ownerB.id, role: "MEMBER" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await roleOf(teamB.id, memberB.id)).toBe("MEMBER");
    expect(await roleOf(teamB.id, ownerB.id)).toBe("OWNER");
  });
});

describe("removeMember", () => {
  it("admins remove members and admins, owners only by owners, never the last owner", async () => {
    const { workspace, owner, actor: ownerActor } = await workspaceWithOwner();
    const { user: member, actor: memberActor } = await addPerson(workspace.id, "MEMBER");
    const { user: admin, actor: adminActor } = await addPerson(workspace.id, "ADMIN");
    const { user: otherAdmin } = await addPerson(workspace.id, "ADMIN");

    await expect(removeMember(memberActor, admin.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(removeMember(adminActor, owner.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(removeMember(ownerActor, owner.id)).rejects.toMatchObject({ code: "CONFLICT" });

    await removeMember(adminActor, member.id);
    await removeMember(adminActor, otherAdmin.id);
    const left = await listMembers(workspace.id);
    expect(left.map((m) => [m.email, m.role])).toEqual([
      [owner.email, "OWNER"],
      [admin.email, "ADMIN"],
    ]);
    await expect(removeMember(adminActor, member.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("another workspace's member is NOT_FOUND and stays", async () => {
    const { actor: ownerA } = await workspaceWithOwner();
    const { workspace: teamB } = await workspaceWithOwner();
    const { user: memberB } = await addPerson(teamB.id, "MEMBER");
    await expect(removeMember(ownerA, memberB.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await roleOf(teamB.id, memberB.id)).toBe("MEMBER");
  });
});
