import { describe, expect, it } from "vitest";
import { addPerson, workspaceWithOwner } from "@/lib/flows/members/test-helpers";
import { getWorkspaceSettings, updateWorkspaceSettings } from "./update-workspace-settings";

describe("retention settings (the dashboard's and the CLI's use case)", () => {
  it("admins and owners change the windows and the hold; a member cannot", async () => {
    const { workspace, actor: owner } = await workspaceWithOwner();
    const { actor: admin } = await addPerson(workspace.id, "ADMIN");
    const { actor: member } = await addPerson(workspace.id, "MEMBER");
    await expect(updateWorkspaceSettings(member, { legalHold: true })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await updateWorkspaceSettings(admin, { bodyRetentionDays: 14, metadataRetentionDays: 400 });
    await updateWorkspaceSettings(owner, { legalHold: true });
    expect(await getWorkspaceSettings(workspace.id)).toMatchObject({
      bodyRetentionDays: 14,
      metadataRetentionDays: 400,
      legalHold: true,
      legalHoldAt: expect.any(Date),
      retention: { effective: { bodyDays: 14, metadataDays: 400 } },
    });
  });

  it("a value typed as something other than a number (NaN from a form) is refused naming its field", async () => {
    const { actor } = await workspaceWithOwner();
    await expect(updateWorkspaceSettings(actor, { bodyRetentionDays: Number("abc") })).rejects.toMatchObject({
      param: "bodyRetentionDays",
    });
    await expect(updateWorkspaceSettings(actor, { metadataRetentionDays: Number("1.5") })).rejects.toMatchObject({
      param: "metadataRetentionDays",
    });
  });
});
