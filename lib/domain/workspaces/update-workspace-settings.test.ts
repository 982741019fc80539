import { describe, expect, it } from "vitest";
import { addPerson, workspaceWithOwner } from "@/lib/flows/members/test-helpers";
import { ensureSystemWorkspace, SYSTEM_WORKSPACE_ID } from "./system-workspace";
import { getWorkspaceSettings, updateWorkspaceSettings } from "./update-workspace-settings";

describe("updateWorkspaceSettings", () => {
  it("changes name, test mode and tracking of the actor's own workspace only", async () => {
    const { workspace, actor } = await workspaceWithOwner();
    const { workspace: other } = await workspaceWithOwner();
    const updated = await updateWorkspaceSettings(actor, {
      name: "  Renamed  ",
      testMode: true,
      trackingEnabled: false,
    });
    // toMatchObject: the retention fields (issue #32) come back too, tested in app/api/v1/workspace/retention.test.ts.
    expect(updated).toMatchObject({
      id: workspace.id,
      name: "Renamed",
      testMode: true,
      trackingEnabled: false,
      defaultLocale: null,
      bodyRetentionDays: null,
      metadataRetentionDays: null,
      legalHold: false,
      legalHoldAt: null,
    });
    expect(await getWorkspaceSettings(workspace.id)).toMatchObject({
      name: "Renamed",
      testMode: true,
      trackingEnabled: false,
      system: false,
    });
    await updateWorkspaceSettings(actor, { testMode: false });
    expect(await getWorkspaceSettings(workspace.id)).toMatchObject({
      name: "Renamed",
      testMode: false,
      trackingEnabled: false,
    });
    expect(await getWorkspaceSettings(other.id)).toMatchObject({
      name: other.name,
      testMode: other.testMode,
      trackingEnabled: other.trackingEnabled,
    });
  });

  it("refuses members and bad input, changing nothing", async () => {
    const { workspace } = await workspaceWithOwner();
    const { actor: member } = await addPerson(workspace.id, "MEMBER");
    const { actor: admin } = await addPerson(workspace.id, "ADMIN");
    const before = await getWorkspaceSettings(workspace.id);
    await expect(updateWorkspaceSettings(member, { name: "Mine now" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(updateWorkspaceSettings(admin, { name: "   " })).rejects.toMatchObject({ param: "name" });
    await expect(updateWorkspaceSettings(admin, { testMode: "yes" as never })).rejects.toMatchObject({
      param: "testMode",
    });
    await expect(updateWorkspaceSettings(admin, { defaultLocale: "en--" })).rejects.toMatchObject({
      param: "defaultLocale",
    });
    expect(await getWorkspaceSettings(workspace.id)).toEqual(before);
    await updateWorkspaceSettings(admin, { name: "By the admin" });
    expect((await getWorkspaceSettings(workspace.id)).name).toBe("By the admin");
  });

  it("keeps the System mail workspace live and untracked", async () => {
    await ensureSystemWorkspace();
    const actor = { userId: "user_0000000000000000", workspaceId: SYSTEM_WORKSPACE_ID, role: "OWNER" as const };
    await expect(updateWorkspaceSettings(actor, { testMode: true })).rejects.toMatchObject({ param: "testMode" });
    await expect(updateWorkspaceSettings(actor, { trackingEnabled: true })).rejects.toMatchObject({
      param: "trackingEnabled",
    });
    expect(await getWorkspaceSettings(SYSTEM_WORKSPACE_ID)).toMatchObject({
      testMode: false,
      trackingEnabled: false,
      system: true,
    });
    await updateWorkspaceSettings(actor, { name: "Operator mail" });
    expect((await getWorkspaceSettings(SYSTEM_WORKSPACE_ID)).name).toBe("Operator mail");
  });
});
